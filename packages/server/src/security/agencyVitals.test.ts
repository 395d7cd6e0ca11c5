/**
 * Data minimisation for the agency levels (security issue 17): an agency sees its partners'
 * rooms' status on the monitoring endpoints, never the residents' vitals, and cannot read their
 * devices' raw signals; the facility's own staff see both. Real server, simulated frames through
 * the live hub.
 */
import { loadParser } from '@nemuri/parser/node';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { LiveRoomState } from '@nemuri/shared/monitoring';
import { DeviceSimulator, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../documents/store.ts';
import { signedIn, startTestServer, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { LiveSignalsClient } from '../ingest/testing.ts';

const A = DEMO_DOMAINS.facilityA;
const SERIAL = 'VITALS-1';

describe('agency levels and residents’ vitals', () => {
  let test: TestServer;
  let staff: DocumentsClient;
  let agency: DocumentsClient;

  beforeAll(async () => {
    test = await startTestServer('pglite');
    const store = new DocumentStore(test.server.database, { error: () => undefined });
    const put = (path: string, data: Record<string, unknown>) => store.set(SYSTEM_PRINCIPAL, path, data, false);
    await put('domains/demo-corp', { name: '法人', kind: 'corporation' });
    await put(`domains/${DEMO_DOMAINS.agency}`, { name: '代理店', kind: 'agency' });
    await put(`domains/${A}`, { name: '施設A', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' });
    await put(`domains/${DEMO_DOMAINS.agency}/partners/demo-corp`, { name: '法人', status: 'active' });
    await put(`devices/${SERIAL}`, { deviceTypeId: 'bed', status: 'in_use', domainId: A, roomId: 'vitals-room' });
    await put('rooms/vitals-room', { domainId: A, name: '101号室', deviceSerial: SERIAL, residentName: '山田 花子' });
    const parser = await loadParser();
    const device = new DeviceSimulator({ serial: SERIAL, seed: 'vitals' });
    const sequences = new SequenceCounters();
    const now = Date.now();
    await test.server.app.monitoring.directory.refresh();
    for (let s = 60; s > 0; s--) {
      const second = device.generate(now - s * 1000);
      if (second === null) continue;
      for (const frame of encodeSecond(parser, second, sequences)) test.server.app.signals.hub.frame(SERIAL, frame.channel as SmfSampleChannel, frame.bytes);
    }
    test.server.app.monitoring.tick();
    [staff, agency] = await Promise.all([signedIn(test.server, 'staff@example.com'), signedIn(test.server, 'agency@example.com')]);
  });
  afterAll(async () => {
    await test?.stop();
  });

  const roomOf = async (client: DocumentsClient): Promise<LiveRoomState | undefined> =>
    ((await client.get('/api/monitoring/rooms')).body as { rooms: LiveRoomState[] }).rooms.find((room) => room.roomId === 'vitals-room');

  it('shows the facility its residents’ vitals, and the agency the room’s status only', async () => {
    const own = await roomOf(staff);
    expect(own).toBeDefined();
    // The simulated person breathes and moves: the facility sees numbers.
    expect([own?.respirationRate, own?.heartRate, own?.movement].some((value) => value !== null)).toBe(true);
    const seen = await roomOf(agency);
    expect(seen).toMatchObject({
      roomId: 'vitals-room',
      serial: SERIAL,
      state: own?.state,
      respirationRate: null,
      heartRate: null,
      movement: null,
      temperature: null,
      lastButtonAt: null,
    });
  });

  it('keeps a partner device’s raw signals from the agency, as if the device were not there', async () => {
    const from = new Date(Date.now() - 120_000).toISOString();
    const to = new Date().toISOString();
    const path = `/api/devices/${SERIAL}/signals?channel=respiAxl&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const [own, other, none] = await Promise.all([staff.get(path), agency.get(path), agency.get(path.replace(SERIAL, 'NO-SUCH-1'))]);
    expect(own.status, own.text).not.toBe(404);
    expect([other.status, (other.body as { code?: string }).code]).toEqual([none.status, (none.body as { code?: string }).code]);
    expect(other.status).toBe(404);
    // Nor live: the signals socket refuses the subscription as for an unknown device.
    const live = await LiveSignalsClient.open(test.server, agency.cookieHeader);
    try {
      const answer = await live.subscribe(SERIAL);
      expect(answer).toMatchObject({ type: 'error', code: 'not-found' });
    } finally {
      live.close();
    }
  });
});
