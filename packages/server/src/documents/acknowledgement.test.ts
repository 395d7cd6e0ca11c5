/**
 * Who acknowledged an alert and when are the server's word (CollectionSpec rule `acknowledgement`
 * on alerts, documents/collectionRules.ts), on every write path of every caller: a nurse cannot
 * record a colleague, backdate it, undo or rewrite an acknowledgement, and only the alert's own
 * facility staff acknowledge. Attacker's tests, on PGlite and on PostgreSQL.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { describeOnBothDatabases, type TestDatabase } from '../testing/bothDatabases.ts';
import { DocumentStore, serverIdentity } from './store.ts';

const staff = (uid: string, accessLevel: number, domainId: string | null, rootDomainId: string | null): Claims => ({
  uid,
  accessLevel,
  domainId,
  rootDomainId,
});
const system = staff('system', ROLE_LEVELS.systemAdmin, null, null);
const nurse = staff('nurse-1', ROLE_LEVELS.generalStaff, 'ack-a', 'ack-corp');
const colleague = staff('nurse-2', ROLE_LEVELS.generalStaff, 'ack-a', 'ack-corp');
const corporationAdmin = staff('corp-admin', ROLE_LEVELS.privilegeAdministrator, 'ack-corp', 'ack-corp');
const otherFacility = staff('nurse-b', ROLE_LEVELS.administrator, 'ack-b', 'ack-corp-b');
const agency = staff('agent', ROLE_LEVELS.agencyAdmin, 'ack-agency', 'ack-agency');
const developer = staff('maker-dev', ROLE_LEVELS.developer, 'ack-maker', 'ack-maker');
const family = staff('family', ROLE_LEVELS.individualUser, 'ack-a', 'ack-corp');
const monitoring = serverIdentity('monitoring');

/** The server's clock: one fixed instant, far from any time a caller sends. */
const SERVER_NOW = Date.parse('2026-11-25T03:00:00.000Z');
const BACKDATED = '2026-11-24T18:00:00.000Z';
const NONE = { by: null, at: null };

function acknowledgements(open: () => Promise<TestDatabase>) {
  let close: () => Promise<void>;
  let store: DocumentStore;
  let serial = 0;
  const stored = async (id: string) => (await store.get(system, `alerts/${id}`))?.document;
  const acknowledgementOf = (alert: Record<string, unknown> | undefined) => ({ by: alert?.acknowledgedBy ?? null, at: alert?.acknowledgedAt ?? null });
  /** A new open alert of facility A's room (the monitoring raises them). */
  const openAlert = async (): Promise<string> => {
    const id = `ack-alert-${++serial}`;
    await store.set(monitoring, `alerts/${id}`, { domainId: 'ack-a', roomId: 'ack-room', type: 'button', startedAt: '2026-11-25T02:59:00.000Z' }, false);
    return id;
  };

  beforeAll(async () => {
    let database: Database;
    ({ database, close } = await open());
    await migrate(database);
    store = new DocumentStore(database, { error: () => undefined }, undefined, { now: () => SERVER_NOW });
    await store.set(system, 'domains/ack-corp', { name: '法人', kind: 'corporation' }, false);
    await store.set(system, 'domains/ack-a', { name: '施設A', kind: 'facility', parentDomainId: 'ack-corp', rootDomainId: 'ack-corp' }, false);
    await store.set(system, 'domains/ack-corp-b', { name: '法人B', kind: 'corporation' }, false);
    await store.set(system, 'domains/ack-b', { name: '施設B', kind: 'facility', parentDomainId: 'ack-corp-b', rootDomainId: 'ack-corp-b' }, false);
    await store.set(system, 'domains/ack-agency', { name: '代理店', kind: 'agency' }, false);
    await store.set(system, 'domains/ack-agency/partners/ack-a', { name: '施設A' }, false);
    await store.set(system, 'rooms/ack-room', { domainId: 'ack-a', name: '101号室', ownerUids: ['family'] }, false);
  }, 120_000);
  afterAll(() => close());

  it('records the caller and the server’s time, whatever time the caller sends', async () => {
    const id = await openAlert();
    const answer = await store.update(nurse, `alerts/${id}`, { acknowledgedBy: nurse.uid, acknowledgedAt: BACKDATED });
    const expected = { acknowledgedBy: nurse.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() };
    expect(answer).toMatchObject(expected);
    expect(await stored(id)).toMatchObject(expected);
    // The time alone is an acknowledgement by the caller, at the server's time.
    const second = await openAlert();
    await store.update(colleague, `alerts/${second}`, { acknowledgedAt: BACKDATED });
    expect(await stored(second)).toMatchObject({ acknowledgedBy: colleague.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() });
  });

  it('refuses recording a colleague as the acknowledger, by update, replace, create and commit (attacker)', async () => {
    const id = await openAlert();
    const path = `alerts/${id}`;
    await expect(store.update(nurse, path, { acknowledgedBy: colleague.uid, acknowledgedAt: BACKDATED })).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(store.set(nurse, path, { acknowledgedBy: colleague.uid }, true)).rejects.toMatchObject({ code: 'invalid-argument' });
    await expect(store.commit(nurse, { reads: [], writes: [{ op: 'update', path, data: { acknowledgedBy: colleague.uid } }] })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    // A record created already acknowledged in someone else's name.
    const forged = { domainId: 'ack-a', roomId: 'ack-room', type: 'button', startedAt: '2026-11-25T01:00:00.000Z' };
    await expect(store.set(nurse, 'alerts/ack-forged', { ...forged, acknowledgedBy: colleague.uid, acknowledgedAt: BACKDATED }, false)).rejects.toMatchObject({
      code: 'invalid-argument',
    });
    expect(await stored('ack-forged')).toBeUndefined();
    expect(acknowledgementOf(await stored(id))).toEqual(NONE);
    // Created acknowledged in one's own name: the time is still the server's.
    await store.set(nurse, 'alerts/ack-own', { ...forged, acknowledgedBy: nurse.uid, acknowledgedAt: BACKDATED }, false);
    expect(await stored('ack-own')).toMatchObject({ acknowledgedBy: nurse.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() });
  });

  it('keeps an acknowledgement: no later write undoes, rewrites or backdates it (attacker)', async () => {
    const id = await openAlert();
    const path = `alerts/${id}`;
    await store.update(nurse, path, { acknowledgedBy: nurse.uid });
    const first = { acknowledgedBy: nurse.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() };
    // Acknowledging again in one's own name changes nothing.
    await store.update(nurse, path, { acknowledgedBy: nurse.uid, acknowledgedAt: BACKDATED });
    expect(await stored(id)).toMatchObject(first);
    for (const claims of [colleague, nurse, corporationAdmin]) {
      if (claims !== nurse)
        await expect(store.update(claims, path, { acknowledgedBy: claims.uid }), claims.uid).rejects.toMatchObject({ code: 'failed-precondition' });
      await expect(store.update(claims, path, { acknowledgedBy: null, acknowledgedAt: null })).rejects.toMatchObject({ code: 'failed-precondition' });
      await expect(store.commit(claims, { reads: [], writes: [{ op: 'update', path, data: { acknowledgedBy: colleague.uid } }] })).rejects.toMatchObject({
        code: expect.stringMatching(/failed-precondition|invalid-argument/),
      });
    }
    // A replace without the acknowledgement would undo it.
    await expect(
      store.set(nurse, path, { domainId: 'ack-a', roomId: 'ack-room', type: 'button', startedAt: '2026-11-25T02:59:00.000Z' }, false),
    ).rejects.toMatchObject({
      code: 'failed-precondition',
    });
    // A backdated time in a later write is replaced by the recorded one; other fields are written.
    await store.update(nurse, path, { acknowledgedAt: BACKDATED, endedAt: '2026-11-25T03:01:00.000Z' });
    expect(await stored(id)).toMatchObject({ ...first, endedAt: '2026-11-25T03:01:00.000Z' });
  });

  it('lets only the alert’s own facility staff acknowledge (attacker)', async () => {
    const id = await openAlert();
    const path = `alerts/${id}`;
    // Out of scope reads as missing; in scope but not the facility's staff is refused.
    await expect(store.update(otherFacility, path, { acknowledgedBy: otherFacility.uid })).rejects.toMatchObject({ code: 'not-found' });
    await expect(store.update(agency, path, { acknowledgedBy: agency.uid })).rejects.toMatchObject({ code: 'not-found' });
    await expect(store.update(developer, path, { acknowledgedBy: developer.uid })).rejects.toMatchObject({ code: 'permission-denied' });
    await expect(store.commit(developer, { reads: [], writes: [{ op: 'update', path, data: { acknowledgedAt: BACKDATED } }] })).rejects.toMatchObject({
      code: 'permission-denied',
    });
    await expect(store.update(family, path, { acknowledgedBy: family.uid })).rejects.toMatchObject({ code: 'permission-denied' });
    expect(acknowledgementOf(await stored(id))).toEqual(NONE);
    // The maker's developers still repair other fields.
    await store.update(developer, path, { endedAt: '2026-11-25T03:02:00.000Z' });
    // The corporation's administrators are staff of its facilities.
    await store.update(corporationAdmin, path, { acknowledgedBy: corporationAdmin.uid });
    expect(await stored(id)).toMatchObject({ acknowledgedBy: corporationAdmin.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() });
  });

  it('lets the monitoring clear an acknowledgement when the alert sounds again, and staff acknowledge anew', async () => {
    const id = await openAlert();
    const path = `alerts/${id}`;
    await store.update(nurse, path, { acknowledgedBy: nurse.uid });
    await store.update(monitoring, path, { soundedAt: '2026-11-25T03:05:00.000Z', acknowledgedBy: null, acknowledgedAt: null });
    expect(acknowledgementOf(await stored(id))).toEqual(NONE);
    await store.update(colleague, path, { acknowledgedBy: colleague.uid });
    expect(await stored(id)).toMatchObject({ acknowledgedBy: colleague.uid, acknowledgedAt: new Date(SERVER_NOW).toISOString() });
  });
}

describeOnBothDatabases('alert acknowledgements', acknowledgements);
