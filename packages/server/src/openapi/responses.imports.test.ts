/**
 * The documented answers of the upload routes are the real ones (responseConformance.ts): staff
 * upload a recording to a room of their facility, upload it again (the duplicate) and import it again,
 * and an administrator deletes it; a missing file name, the wrong content type, another tenant's room (answered like
 * a missing one) and a signed-out caller give the errors.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParserSync } from '@nemuri/parser/node';
import { UPLOAD_FILE_NAME_HEADER } from '@nemuri/shared/imports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient, ClientReply } from '../testing/browserClient.ts';
import { writeSmfRecording } from '../imports/testing.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const UPLOADS = '/api/rooms/:roomId/uploads';

describe('documented response schemas match the answers: uploads', () => {
  let running: ConformanceServer;
  let dir: string;
  let recording: Buffer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  /** The file as a stream of bytes, which the browser client (text bodies) does not send. */
  const upload = async (who: BrowserClient, roomId: string, headers: Record<string, string>): Promise<ClientReply> => {
    const response = await fetch(`${running.server.url}/api/rooms/${roomId}/uploads`, {
      method: 'POST',
      headers: { cookie: who.cookieHeader, origin: running.server.url, 'content-type': 'application/octet-stream', ...headers },
      body: new Blob([new Uint8Array(recording)]),
    });
    const text = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), setCookies: [], text, body: JSON.parse(text) as unknown };
  };

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-imports-');
    await running.store.set(system, 'rooms/ru-a1', { domainId: A, name: '501号室' }, false);
    await running.store.set(system, 'rooms/ru-o1', { domainId: OTHER, name: '別施設の部屋' }, false);
    dir = await mkdtemp(join(tmpdir(), 'nemuri-responses-imports-'));
    await writeSmfRecording(createParserSync(), join(dir, 'night.smf'), { serial: 'RU-1', fromMs: Date.parse('2026-11-18T22:00:00+09:00'), minutes: 2 });
    recording = await readFile(join(dir, 'night.smf'));
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a recording uploaded, recognised again, imported again and deleted; refused, out of scope and signed out', async () => {
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const named = { [UPLOAD_FILE_NAME_HEADER]: encodeURIComponent('RU-1_2026-11-18.smf') };
    const created = conforms('POST', UPLOADS, await upload(staff, 'ru-a1', named));
    expect(created.status).toBe(201);
    const { uploadId } = created.body as { uploadId: string };
    expect(conforms('POST', UPLOADS, await upload(staff, 'ru-a1', named)).status).toBe(409);
    expect(conforms('POST', UPLOADS, await upload(staff, 'ru-a1', {})).status).toBe(400);
    expect(conforms('POST', UPLOADS, await upload(staff, 'ru-a1', { ...named, 'content-type': 'text/csv' })).status).toBe(415);
    expect(conforms('POST', UPLOADS, await upload(staff, 'ru-o1', named)).status).toBe(404);
    expect(conforms('POST', UPLOADS, await upload(outsider, 'ru-a1', named)).status).toBe(401);
    await running.server.app.imports.idle();

    const reprocess = '/api/rooms/:roomId/uploads/:uploadId/reprocess';
    expect(conforms('POST', reprocess, await staff.post(`/api/rooms/ru-a1/uploads/${uploadId}/reprocess`, {})).status).toBe(202);
    conforms('POST', reprocess, await staff.post(`/api/rooms/ru-a1/uploads/${uploadId}/reprocess`, { unknownColumns: 'maybe' }));
    expect(conforms('POST', reprocess, await staff.post(`/api/rooms/ru-o1/uploads/${uploadId}/reprocess`, {})).status).toBe(404);
    conforms('POST', reprocess, await outsider.post(`/api/rooms/ru-a1/uploads/${uploadId}/reprocess`, {}));
    await running.server.app.imports.idle();

    const one = '/api/rooms/:roomId/uploads/:uploadId';
    expect(conforms('DELETE', one, await staff.send('DELETE', `/api/rooms/ru-o1/uploads/${uploadId}`, undefined)).status).toBe(404);
    conforms('DELETE', one, await outsider.send('DELETE', `/api/rooms/ru-a1/uploads/${uploadId}`, undefined));
    // Deleting is for administrators.
    expect(conforms('DELETE', one, await staff.send('DELETE', `/api/rooms/ru-a1/uploads/${uploadId}`, undefined)).status).toBe(403);
    const admin = await running.client('admin@example.com');
    expect(conforms('DELETE', one, await admin.send('DELETE', `/api/rooms/ru-a1/uploads/${uploadId}`, undefined)).status).toBe(200);
    expect(conforms('DELETE', one, await admin.send('DELETE', `/api/rooms/ru-a1/uploads/${uploadId}`, undefined)).status).toBe(404);
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      'POST /api/rooms/{roomId}/uploads 201',
      'POST /api/rooms/{roomId}/uploads/{uploadId}/reprocess 202',
      'DELETE /api/rooms/{roomId}/uploads/{uploadId} 200',
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
