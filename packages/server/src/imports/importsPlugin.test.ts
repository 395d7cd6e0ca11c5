/**
 * Uploads on a real server (PGlite, demo accounts, the import worker thread): a file streamed in
 * becomes an upload whose status moves to done with the sleep days it made; the same file again is
 * recognised; an unsupported or broken file says why and harms nothing else; reprocessing gives the
 * same days; deleting takes the days with it; and nobody reaches another facility's room.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParserSync } from '@nemuri/parser/node';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { UPLOAD_FILE_NAME_HEADER } from '@nemuri/shared/imports';
import { SHARED_DATA_DIR } from '@nemuri/simulator/eit';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { signedInClient, startIngestServer, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient } from '../testing/browserClient.ts';
import { writeSmfRecording } from './testing.ts';

const A = DEMO_DOMAINS.facilityA;
const B = DEMO_DOMAINS.facilityB;
const HYPNOGRAM = join(SHARED_DATA_DIR, 'edf', 'SC4001EC-Hypnogram.edf');

describe('uploads', () => {
  let base: IngestTestServer;
  let staff: BrowserClient;
  let admin: BrowserClient;
  let resident: BrowserClient;
  let dir: string;
  let night: Buffer;
  const roomA = `imports-a-${Date.now()}`;
  const roomB = `imports-b-${Date.now()}`;

  const documents = () => base.server.app.documents;
  const upload = async (client: BrowserClient, roomId: string, fileName: string, bytes: Uint8Array) => {
    const response = await fetch(`${base.server.url}/api/rooms/${roomId}/uploads`, {
      method: 'POST',
      headers: {
        cookie: client.cookieHeader,
        origin: base.server.url,
        'content-type': 'application/octet-stream',
        [UPLOAD_FILE_NAME_HEADER]: encodeURIComponent(fileName),
      },
      body: new Blob([new Uint8Array(bytes)]),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const uploadOf = async (roomId: string, uploadId: string) => (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomId}/uploads/${uploadId}`))?.document;
  const sleepDays = async (roomId: string) =>
    (await documents().query(SYSTEM_PRINCIPAL, { collection: `rooms/${roomId}/sleeps` })).map((record) => ({
      day: record.documentReferenceId,
      source: record.source,
    }));
  const settled = async () => base.server.app.imports.idle();

  beforeAll(async () => {
    base = await startIngestServer();
    const as = (email: string) => signedInClient(base.server, email);
    [staff, admin, resident] = await Promise.all([as('staff@example.com'), as('admin@example.com'), as('individual@example.com')]);
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${roomA}`, { domainId: A, name: '取込 101号室' }, false);
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${roomB}`, { domainId: B, name: '取込 201号室' }, false);
    dir = await mkdtemp(join(tmpdir(), 'nemuri-uploads-test-'));
    await writeSmfRecording(createParserSync(), join(dir, 'night.smf'), { serial: 'NM-UP-1', fromMs: Date.parse('2026-11-18T22:00:00+09:00'), minutes: 120 });
    night = await readFile(join(dir, 'night.smf'));
  }, 180_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('streams an SMF recording in, processes it and writes its sleep day; the same file again is recognised', async () => {
    const created = await upload(staff, roomA, 'NM-UP-1_2026-11-18.smf', night);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const uploadId = String(created.body.uploadId);
    expect(created.body.upload).toMatchObject({
      fileName: 'NM-UP-1_2026-11-18.smf',
      format: 'smf',
      status: 'queued',
      size: night.length,
      deviceSerial: 'NM-UP-1',
    });
    await settled();
    expect(await uploadOf(roomA, uploadId)).toMatchObject({
      status: 'done',
      channels: ['ecg', 'respiAxl', 'temperature'],
      recordStart: new Date(Date.parse('2026-11-18T22:00:00+09:00')).toISOString(),
      recordEnd: new Date(Date.parse('2026-11-19T00:00:00+09:00')).toISOString(),
      sleepDays: ['2026-11-18'],
    });
    expect(await sleepDays(roomA)).toEqual([{ day: '2026-11-18', source: uploadId }]);

    const again = await upload(admin, roomA, 'copy.smf', night);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already-exists', uploadId, fileName: 'NM-UP-1_2026-11-18.smf' });
  }, 120_000);

  it("keeps an SMF recording's raw signals under the room's device, once", async () => {
    const roomC = `imports-c-${Date.now()}`;
    const serial = `NM-UP-${Date.now().toString(36)}`;
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${roomC}`, { domainId: A, name: '取込 102号室', deviceSerial: serial }, false);
    const fromMs = Date.parse('2026-11-17T23:00:00+09:00');
    await writeSmfRecording(createParserSync(), join(dir, 'short.smf'), { serial, fromMs, minutes: 5 });
    const created = await upload(staff, roomC, `${serial}_short.smf`, await readFile(join(dir, 'short.smf')));
    expect(created.status).toBe(201);
    await settled();
    expect(await uploadOf(roomC, String(created.body.uploadId))).toMatchObject({ status: 'done', storedSerial: serial });
    const frames = () => base.server.app.signals.store.read(serial, 'ecg', fromMs * 1000, (fromMs + 300_000) * 1000);
    const stored = createParserSync().decodeSmfStream(await frames());
    expect(stored).toHaveLength(300);
    expect(stored[0]?.startTimeUs).toBe(fromMs * 1000);
    // Reprocessing scores the night again but keeps the signals as they are.
    const before = (await frames()).length;
    expect((await staff.post(`/api/rooms/${roomC}/uploads/${String(created.body.uploadId)}/reprocess`)).status).toBe(202);
    await settled();
    expect((await frames()).length).toBe(before);
  }, 60_000);

  it('keeps a hypnogram as scored and merges it into the day scored from signals', async () => {
    const created = await upload(staff, roomA, 'SC4001EC-Hypnogram.edf', await readFile(HYPNOGRAM));
    expect(created.status).toBe(201);
    await settled();
    const done = await uploadOf(roomA, String(created.body.uploadId));
    expect(done).toMatchObject({
      status: 'done',
      format: 'edf',
      hasStages: true,
      sleepDays: ['1989-04-24'],
      warnings: [expect.objectContaining({ code: 'outside-night', day: '1989-04-25' })],
    });
    const record = (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomA}/sleeps/1989-04-24`))?.document;
    expect(record?.hypnogram).toEqual(expect.arrayContaining([{ start: expect.any(String), durationSec: 120, stage: 'N1' }]));
  });

  it('fails a broken file with the reason and leaves the days of other uploads alone', async () => {
    const before = await sleepDays(roomA);
    const cut = await upload(staff, roomA, 'cut.smf', night.subarray(0, 100_000));
    expect(cut.status).toBe(201);
    await settled();
    expect(await uploadOf(roomA, String(cut.body.uploadId))).toMatchObject({
      status: 'failed',
      errorCode: 'corrupt',
      error: expect.stringMatching(/cut short/),
    });
    expect(await sleepDays(roomA)).toEqual(before);
  });

  it('refuses unsupported files and empty files before keeping anything', async () => {
    const text = await upload(staff, roomA, 'notes.txt', Buffer.from('hello'));
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ reason: 'unsupported-format' });
    const empty = await upload(staff, roomA, 'empty.smf', new Uint8Array(0));
    expect(empty.body).toMatchObject({ reason: 'empty-file' });
    const uploads = await documents().query(SYSTEM_PRINCIPAL, { collection: `rooms/${roomA}/uploads` });
    expect(uploads.map((record) => record.fileName)).not.toContain('notes.txt');
  });

  it('keeps upload records to the uploads API: the documents API refuses to write them', async () => {
    const forged = await admin.send(
      'PUT',
      `/api/documents/rooms/${roomA}/uploads/forged`,
      JSON.stringify({ data: { fileName: 'x.smf', size: 1, format: 'smf', uploadedBy: 'me', status: 'done' } }),
      { 'content-type': 'application/json' },
    );
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'permission-denied', message: expect.stringContaining('/api/rooms/{roomId}/uploads') });
  });

  it('keeps rooms of other facilities and residents out', async () => {
    expect((await upload(admin, roomB, 'x.smf', night.subarray(0, 1000))).status).toBe(404);
    expect((await upload(staff, roomB, 'x.smf', night.subarray(0, 1000))).status).toBe(404);
    expect((await upload(resident, roomA, 'x.smf', night.subarray(0, 1000))).status).toBe(403);
    const [first] = await documents().query(SYSTEM_PRINCIPAL, {
      collection: `rooms/${roomA}/uploads`,
      where: [
        ['format', '==', 'smf'],
        ['status', '==', 'done'],
      ],
    });
    const uploadId = String(first?.documentReferenceId);
    // Another facility's room reads as missing, whatever upload id comes with it.
    expect((await admin.post(`/api/rooms/${roomB}/uploads/${uploadId}/reprocess`)).status).toBe(404);
    expect((await admin.send('DELETE', `/api/rooms/${roomB}/uploads/${uploadId}`, undefined)).status).toBe(404);
  });

  it('reprocesses to the same day, and deletes the upload with its days (administrators only)', async () => {
    const [first] = await documents().query(SYSTEM_PRINCIPAL, {
      collection: `rooms/${roomA}/uploads`,
      where: [
        ['format', '==', 'smf'],
        ['status', '==', 'done'],
      ],
    });
    const uploadId = String(first?.documentReferenceId);
    const before = (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomA}/sleeps/2026-11-18`))?.document;
    const reprocess = await staff.post(`/api/rooms/${roomA}/uploads/${uploadId}/reprocess`);
    expect(reprocess.status, reprocess.text).toBe(202);
    await settled();
    const after = (await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomA}/sleeps/2026-11-18`))?.document;
    const { updatedAt: _a, createdAt: _b, ...same } = after ?? {};
    const { updatedAt: _c, createdAt: _d, ...was } = before ?? {};
    expect(same).toEqual(was);

    expect((await staff.send('DELETE', `/api/rooms/${roomA}/uploads/${uploadId}`, undefined)).status).toBe(403);
    const removed = await admin.send('DELETE', `/api/rooms/${roomA}/uploads/${uploadId}`, undefined);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ deletedDays: ['2026-11-18'] });
    expect(await uploadOf(roomA, uploadId)).toBeUndefined();
    expect((await sleepDays(roomA)).map((day) => day.day)).not.toContain('2026-11-18');
  }, 120_000);
});
