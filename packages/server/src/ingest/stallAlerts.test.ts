/**
 * The administrators' alert when ingest stops for a domain's devices (issue 25), on a real server and
 * database: queued through the notification queue once per episode, a recovery message when frames
 * arrive again, nothing for a domain whose devices never sent anything or within the grace after a
 * start, and an alert when frames arrive but cannot be stored. The mail goes out through the queue's
 * worker (the development outbox here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverIdentity } from '../documents/store.ts';
import type { RuntimeState } from '../health/readiness.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { eventually } from './faultTesting.ts';
import { StallWatch, STALL_AFTER_MS } from './stallAlerts.ts';
import { registerDevice, startIngestServer, uniqueSerial, type IngestTestServer } from './testing.ts';

const MIN = 60_000;
/** Domains of this test's own: one whose devices send, one whose device never did. */
const DOMAIN = 'stall-facility';
const QUIET_DOMAIN = 'stall-quiet-facility';
const STAFF = [
  { uid: 'stall-admin', email: 'stall-admin@example.com', accessLevel: 3 },
  { uid: 'stall-owner', email: 'stall-owner@example.com', accessLevel: 5 },
  { uid: 'stall-staff', email: 'stall-staff@example.com', accessLevel: 2 },
];

interface QueueRow {
  alert_id: string;
  step: number;
  channel: string;
  status: string;
  payload: { to?: string; subject?: string; text?: string };
}

describe('operator alert when ingest stops for a domain', () => {
  let running: IngestTestServer;
  const serials = [uniqueSerial('stallA'), uniqueSerial('stallB')];
  const quiet = uniqueSerial('stallQuiet');

  beforeAll(async () => {
    running = await startIngestServer();
    const store = running.server.app.documents;
    const me = serverIdentity('stall-test');
    for (const domain of [DOMAIN, QUIET_DOMAIN]) {
      await store.set(me, `domains/${domain}`, { name: 'ねむり園', kind: 'facility' }, false);
      for (const member of STAFF)
        await store.set(
          me,
          `domains/${domain}/staff/${member.uid}`,
          { displayName: member.uid, email: `${domain}-${member.email}`, accessLevel: member.accessLevel },
          false,
        );
    }
    for (const serial of serials) await registerDevice(running.server, serial, 'stall-secret', DOMAIN);
    await registerDevice(running.server, quiet, 'stall-secret', QUIET_DOMAIN);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    await running?.remove();
  });

  const seenAt = async (serial: string, ms: number): Promise<void> => {
    await running.server.app.documents.update(SYSTEM_PRINCIPAL, `devices/${serial}`, { lastSeenAt: new Date(ms).toISOString() });
  };
  const rowsOf = async (domainId: string): Promise<QueueRow[]> =>
    (
      await running.server.database.query<QueueRow>(
        `select alert_id, step, channel, status, payload from notify_queue where domain_id = $1 and alert_id like 'ingest-stall-%' order by id`,
        [domainId],
      )
    ).rows;

  it('alerts the administrators once per episode, says when it is over, and not after a start or for devices that never sent', async () => {
    // In the past, so that what is queued is due at once for the queue's worker (which keeps real time).
    const t0 = Date.now() - 40 * MIN;
    let clock = t0;
    const watch = new StallWatch({ database: running.server.database, log: running.server.app.log, now: () => clock, everyMs: 0 });
    for (const serial of serials) await seenAt(serial, t0 - 10 * MIN);

    // Silent for 10 minutes already, but the process has just started: the devices get their time.
    clock = t0 + STALL_AFTER_MS - MIN;
    await watch.check();
    expect(await rowsOf(DOMAIN)).toEqual([]);

    clock = t0 + STALL_AFTER_MS + MIN;
    await watch.check();
    const alerted = await rowsOf(DOMAIN);
    expect(alerted.length).toBeGreaterThan(0);
    expect(alerted.every((row) => row.step === 0 && row.channel === 'mail')).toBe(true);
    // Administrators only: no general staff.
    expect(alerted.map((row) => row.payload.to).sort()).toEqual([`${DOMAIN}-stall-admin@example.com`, `${DOMAIN}-stall-owner@example.com`]);
    expect(alerted[0]?.payload.subject).toContain('機器からのデータが届いていません');
    expect(alerted[0]?.payload.text).toContain('使用中 2 台');
    // The device that never sent anything makes no episode of its domain.
    expect(await rowsOf(QUIET_DOMAIN)).toEqual([]);

    // Once per episode, however often it is checked (and by however many watchers).
    clock += 3 * MIN;
    await watch.check();
    // Another process, just started: in its grace period the devices are not silent to it, yet no
    // frame came, so the episode is not over either.
    const other = new StallWatch({ database: running.server.database, log: running.server.app.log, now: () => clock, everyMs: 0 });
    await other.check();
    expect(await rowsOf(DOMAIN)).toHaveLength(alerted.length);

    // The mail goes out through the queue's worker.
    await eventually(async () => (await rowsOf(DOMAIN)).every((row) => row.status === 'sent') || undefined, 'the alert mails sent', 20_000, 200);

    // A frame again: the recovery message, once.
    await seenAt(serials[1]!, clock - 10_000);
    await watch.check();
    await watch.check();
    const recovered = (await rowsOf(DOMAIN)).filter((row) => row.step === 1);
    expect(recovered).toHaveLength(alerted.length);
    expect(recovered[0]?.payload.subject).toContain('受信が再開しました');

    // Silent again later: a new episode.
    clock += STALL_AFTER_MS + MIN;
    await watch.check();
    const episodes = new Set((await rowsOf(DOMAIN)).map((row) => row.alert_id));
    expect(episodes.size).toBe(2);
  });

  it('alerts when frames arrive but cannot be stored', async () => {
    // After the test before's clock, still in the past.
    const t0 = Date.now() - 20 * MIN;
    let clock = t0;
    let storage: RuntimeState = { state: 'ok' };
    const watch = new StallWatch({ database: running.server.database, log: running.server.app.log, now: () => clock, storage: () => storage, everyMs: 0 });
    const before = new Set((await rowsOf(DOMAIN)).map((row) => row.alert_id));
    await seenAt(serials[0]!, clock);
    await watch.check();
    // Close the open episode of the test before, if any, so that only this one is new.
    storage = { state: 'down', reason: '書き込みに失敗しています' };
    await watch.check();
    clock += STALL_AFTER_MS + MIN;
    await seenAt(serials[0]!, clock - 1000);
    await watch.check();
    const fresh = (await rowsOf(DOMAIN)).filter((row) => !before.has(row.alert_id) && row.step === 0);
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh[0]?.payload.text).toContain('保存できていません');

    storage = { state: 'ok' };
    await watch.check();
    const closed = (await rowsOf(DOMAIN)).filter((row) => row.alert_id === fresh[0]?.alert_id && row.step === 1);
    expect(closed.length).toBe(fresh.length);
  });
});
