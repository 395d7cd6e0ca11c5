/**
 * The documented answers of HTTP ingest are the real ones (responseConformance.ts): a device
 * registered by its facility's administrator sends SMF frames with its secret; a wrong or missing
 * secret, another device's serial, a stream the parser rejects, a body of the wrong type or size
 * and too many requests give the errors.
 */
import { loadParser } from '@nemuri/parser/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientReply } from '../testing/browserClient.ts';
import { MAX_INGEST_BODY } from '../ingest/ingestPlugin.ts';
import { FACILITY_A as A, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const FRAMES = '/api/devices/:serial/frames';

describe('documented response schemas match the answers: HTTP ingest', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  /** Raw bytes, which the browser client (text bodies) does not send. */
  const post = async (serial: string, body: Uint8Array | string, headers: Record<string, string>): Promise<ClientReply> => {
    const response = await fetch(`${running.server.url}/api/devices/${serial}/frames`, {
      method: 'POST',
      body: typeof body === 'string' ? body : new Uint8Array(body),
      headers,
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: Object.fromEntries(response.headers), setCookies: [], text, body: parsed };
  };

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-ingest-');
    await running.store.set(system, 'devices/RI-A1', { deviceTypeId: 'nemuri-chest', domainId: A, roomId: null, status: 'lent' }, false);
    await running.store.set(system, 'devices/RI-A2', { deviceTypeId: 'nemuri-chest', domainId: A, roomId: null, status: 'lent' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('frames stored; refused secrets, streams, types and sizes; too many requests', async () => {
    const admin = await running.client('admin@example.com');
    const { secret } = (await admin.post('/api/devices/RI-A1/registration', {})).body as { secret: string };
    const parser = await loadParser();
    const startUs = (Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000) * 1000;
    const frames = Buffer.concat(
      [0, 1].map((sequence) =>
        parser.encodeSmfFrame({ channel: 'temperature', format: 'float32', sampleRate: 1, sequence, startTimeUs: startUs + sequence * 1e6, values: [36.5] }),
      ),
    );
    const device = (type: string) => ({ 'content-type': type, authorization: `Bearer ${secret}` });
    const octets = device('application/octet-stream');

    expect(conforms('POST', FRAMES, await post('RI-A1', frames, octets)).body).toEqual({ frames: 2 });
    expect(conforms('POST', FRAMES, await post('RI-A1', frames.toString('base64'), device('text/plain'))).status).toBe(202);
    const rejected = conforms('POST', FRAMES, await post('RI-A1', Buffer.from('not an SMF stream'), octets));
    expect((rejected.body as { parseError?: { code: string } }).parseError?.code).toBeDefined();
    conforms('POST', FRAMES, await post('RI-A1', '!!!', device('text/plain')));
    expect(conforms('POST', FRAMES, await post('RI-A1', JSON.stringify({ frames: [] }), device('application/json'))).status).toBe(400);
    expect(conforms('POST', FRAMES, await post('RI-A1', frames, device('image/png'))).status).toBe(415);
    expect(conforms('POST', FRAMES, await post('RI-A1', Buffer.alloc(MAX_INGEST_BODY + 1), octets)).status).toBe(413);
    // Another device's serial with this secret, a wrong secret and none answer alike.
    expect(conforms('POST', FRAMES, await post('RI-A2', frames, octets)).status).toBe(401);
    expect(conforms('POST', FRAMES, await post('RI-A1', frames, { 'content-type': 'application/octet-stream', authorization: 'Bearer wrong' })).status).toBe(
      401,
    );
    expect(conforms('POST', FRAMES, await post('RI-A1', frames, { 'content-type': 'application/octet-stream' })).status).toBe(401);

    const burst = await Promise.all(Array.from({ length: 60 }, () => post('RI-A1', Buffer.from('x'), octets)));
    for (const reply of burst) conforms('POST', FRAMES, reply);
    expect(burst.map((reply) => reply.status)).toContain(429);
  });

  it('covered the success answer and logged no answer off its schema', () => {
    expect([...running.seen]).toContain('POST /api/devices/{serial}/frames 202');
    expect(running.offSchemaLines()).toEqual([]);
  });
});
