/**
 * The re-run of a sleep day over HTTP on a real server: who may ask, for which room, and the record
 * written from the stored signals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient } from '../testing/browserClient.ts';

const A = DEMO_DOMAINS.facilityA;

describe('POST /api/rooms/:roomId/sleeps/:day/analysis', () => {
  let base: IngestTestServer;
  let staff: BrowserClient;
  let individual: BrowserClient;
  const documents = () => base.server.app.documents;
  const serial = uniqueSerial('sleep');
  const roomId = `sleep-room-${serial}`;
  const otherRoom = `sleep-other-${serial}`;

  beforeAll(async () => {
    base = await startIngestServer();
    [staff, individual] = await Promise.all([signedInClient(base.server, 'staff@example.com'), signedInClient(base.server, 'individual@example.com')]);
    await documents().set(SYSTEM_PRINCIPAL, `domains/${A}`, { name: 'さくら苑', kind: 'facility', rootDomainId: DEMO_DOMAINS.corporation }, true);
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${roomId}`, { domainId: A, name: '分析室', deviceSerial: serial }, false);
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${otherRoom}`, { domainId: DEMO_DOMAINS.facilityB, name: '他施設', deviceSerial: `${serial}-b` }, false);
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('re-runs a day for staff of the room, refuses others and bad days', { timeout: 60_000 }, async () => {
    const done = await staff.post(`/api/rooms/${roomId}/sleeps/2026-11-20/analysis`, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ roomId, day: '2026-11-20', frames: 0, written: true });
    const record = await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomId}/sleeps/2026-11-20`);
    // No stored signals that day: a record of unknown minutes, nothing invented.
    expect(record?.document).toMatchObject({ source: 'live', timeInBedMin: 0, totalSleepMin: 0, bedTime: null });
    expect((await staff.post(`/api/rooms/${roomId}/sleeps/20261120/analysis`, {})).status).toBe(400);
    expect((await individual.post(`/api/rooms/${roomId}/sleeps/2026-11-20/analysis`, {})).status).toBe(403);
    expect([403, 404]).toContain((await staff.post(`/api/rooms/${otherRoom}/sleeps/2026-11-20/analysis`, {})).status);
  });
});
