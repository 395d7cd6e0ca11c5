/**
 * Attacker's test of the route schemas (http/zodRouteSchemas.ts): malformed, oversized and
 * prototype-polluting bodies and queries sent to routes that declare their input as zod schemas
 * (a report comment, the report queries, the account's phone and photo, agency bill generation and
 * listing, device lending, signal reads) answer 400
 * `invalid-argument` before any handler runs, and nothing is written: the room's comment, the
 * agency's bills and the device's borrows are as before, and Object.prototype is untouched.
 */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { PHOTO_DATA_URL_MAX_LENGTH } from '@nemuri/shared/accountProfile';
import { MAX_REPORT_COMMENT } from '@nemuri/shared/report/period';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import type { ClientReply } from '../testing/browserClient.ts';
import { describePostgres } from '../testing/postgres.ts';

const ROOM = 'rooms/route-schema-0';
const COMMENT_PATH = '/api/reports/rooms/route-schema-0/comment';
const AGENCY = DEMO_DOMAINS.agency;
const json = { 'content-type': 'application/json' };

function expectRefused(reply: ClientReply, label: string): void {
  expect(reply.status, `${label}: ${reply.text.slice(0, 300)}`).toBe(400);
  expect((reply.body as { code?: string }).code, label).toBe('invalid-argument');
}

function routeSchemasRefuse(choice: DatabaseChoice): void {
  let test: TestServer;
  let staff: DocumentsClient;
  let agencyAdmin: BrowserClient;

  beforeAll(async () => {
    test = await startTestServer(choice);
    staff = await signedIn(test.server, 'staff@example.com');
    agencyAdmin = await signedIn(test.server, 'agency-admin@example.com');
    const admin = await signedIn(test.server, 'admin@example.com');
    ok(await admin.setDocument(ROOM, { domainId: DEMO_DOMAINS.facilityA, name: '検査室' }));
    // Under vitest the demo data set is not loaded: the agency whose bills are attacked.
    const developer = await signedIn(test.server, 'developer@example.com');
    ok(await developer.setDocument(`domains/${AGENCY}`, { name: '検査代理店', kind: 'agency', rootDomainId: AGENCY }));
  }, 120_000);
  afterAll(async () => {
    await test?.stop();
  });

  it('refuses malformed, oversized and polluting comment bodies, and the comment stays unwritten', async () => {
    const bodies: Record<string, string> = {
      'a comment past the limit': JSON.stringify({ comment: 'あ'.repeat(MAX_REPORT_COMMENT + 1) }),
      'a number for a string': '{"comment":5}',
      'an unknown key': '{"comment":"x","isAdmin":true}',
      'a __proto__ key': '{"comment":"x","__proto__":{"polluted":1}}',
      'a constructor.prototype key': '{"comment":"x","constructor":{"prototype":{"polluted":1}}}',
      'an array body': '["x"]',
      'a string body': '"x"',
      'a null body': 'null',
      'no comment at all': '{}',
      'not JSON': '{"comment":',
    };
    for (const [label, body] of Object.entries(bodies)) expectRefused(await staff.send('PUT', COMMENT_PATH, body, json), label);
    const past = await staff.send('PUT', COMMENT_PATH, JSON.stringify({ comment: 'あ'.repeat(MAX_REPORT_COMMENT + 1) }), json);
    expect((past.body as { message: string }).message).toMatch(/^comment: /);
    // Beyond the server's body limit: refused before it is read, never a 5xx.
    const huge = await staff.send('PUT', COMMENT_PATH, JSON.stringify({ comment: 'x'.repeat(2 * 1024 * 1024) }), json);
    expect(huge.status).toBe(413);
    const room = ok(await staff.getDocument(ROOM)).body as { document: { reportComment?: unknown } };
    expect(room.document.reportComment ?? null).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The same route still takes a good comment.
    expect(ok(await staff.send('PUT', COMMENT_PATH, '{"comment":"  よく眠れた  "}', json)).body).toEqual({ comment: 'よく眠れた' });
  });

  it('refuses a report query with an unknown, repeated or mistyped key, naming it: CSV, PDF and data alike', async () => {
    const good = 'rooms=route-schema-0&from=2026-11-01&to=2026-11-02';
    const attacks: Record<string, string> = {
      'an unknown key': `${good}&format=xlsx`,
      'a __proto__ key': `${good}&__proto__[polluted]=1`,
      'a repeated room list': `${good}&rooms=other`,
      'an unknown CSV kind': `${good}&kind=everything`,
    };
    for (const path of ['/api/reports/csv', '/api/reports/pdf', '/api/reports/data'])
      for (const [label, query] of Object.entries(attacks)) {
        if (label === 'an unknown CSV kind' && path !== '/api/reports/csv') continue;
        const reply = await staff.get(`${path}?${query}`);
        expectRefused(reply, `${path} ${label}`);
        if (label === 'an unknown key') expect((reply.body as { message: string }).message, path).toBe("query: Unrecognized key(s) in object: 'format'");
      }
    // The CSV's own keys are still taken there, and only there.
    expect((await staff.get(`/api/reports/csv?${good}&kind=epochs&encoding=sjis`)).status).toBe(200);
    expectRefused(await staff.get(`/api/reports/data?${good}&encoding=sjis`), 'a CSV key on the data query');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses bad phone and photo bodies before the handler, and the profile stays as it was', async () => {
    const phone = '/api/account/profile/phone';
    const photo = '/api/account/profile/photo';
    ok(await staff.send('PUT', phone, '{"phoneNumber":"090-1111-2222"}', json));
    const phoneBodies: Record<string, [string, RegExp]> = {
      'a number for the number': ['{"phoneNumber":9011112222}', /^phoneNumber: Expected string, received number$/],
      'an unknown key': ['{"phoneNumber":"090-3333-4444","uid":"someone-else"}', /Unrecognized key\(s\) in object: 'uid'/],
      'an oversized number': [JSON.stringify({ phoneNumber: '0'.repeat(100_000) }), /^phoneNumber: String must contain at most 20/],
      'an array body': ['["090-3333-4444"]', /^body: Expected object, received array$/],
      'a __proto__ key': ['{"phoneNumber":"090-3333-4444","__proto__":{"polluted":1}}', /__proto__/],
      'no phone number at all': ['{}', /^phoneNumber: Required$/],
    };
    for (const [label, [body, message]] of Object.entries(phoneBodies)) {
      const reply = await staff.send('PUT', phone, body, json);
      expectRefused(reply, label);
      expect((reply.body as { message: string }).message, label).toMatch(message);
    }
    // What a person can mistype keeps the reason the screen picks its message by.
    const mistyped = await staff.send('PUT', phone, '{"phoneNumber":"12345"}', json);
    expectRefused(mistyped, 'not a Japanese number');
    expect(mistyped.body).toMatchObject({ reason: 'invalid-phone', message: 'phoneNumber: not a Japanese phone number' });

    const photoBodies: Record<string, [string, RegExp]> = {
      'a number for the data URL': ['{"dataUrl":5}', /^dataUrl: Expected string, received number$/],
      'an unknown key': ['{"dataUrl":"data:image/png;base64,AAAA","userId":"x"}', /Unrecognized key\(s\) in object: 'userId'/],
      'an SVG': [JSON.stringify({ dataUrl: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` }), /PNG, JPEG or WebP/],
      'a URL instead of data': ['{"dataUrl":"https://example.com/me.png"}', /PNG, JPEG or WebP/],
    };
    for (const [label, [body, message]] of Object.entries(photoBodies)) {
      const reply = await staff.send('PUT', photo, body, json);
      expectRefused(reply, label);
      expect((reply.body as { message: string }).message, label).toMatch(message);
    }
    const tooLarge = await staff.send('PUT', photo, JSON.stringify({ dataUrl: `data:image/png;base64,${'A'.repeat(PHOTO_DATA_URL_MAX_LENGTH)}` }), json);
    expectRefused(tooLarge, 'a photo past the size');
    expect((tooLarge.body as { reason: string }).reason).toBe('photo-too-large');
    // Beyond the route's body limit: refused before it is read.
    expect((await staff.send('PUT', photo, JSON.stringify({ dataUrl: 'A'.repeat(2 * 1024 * 1024) }), json)).status).toBe(413);
    expect(ok(await staff.get('/api/account/profile')).body).toEqual({ phoneNumber: '09011112222', photoURL: null });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses bad bill queries and bodies, and no bill is made', async () => {
    const before = ok(await agencyAdmin.get(`/api/agency/${AGENCY}/bills?limit=100`)).body as { bills: unknown[] };
    const queries = [
      'limit=1000000000',
      'limit=-1',
      'limit=abc',
      'limit=1&limit=2',
      'status=evil',
      'cursor=../../domains',
      '__proto__=x',
      '__proto__[polluted]=1',
      'constructor[prototype][polluted]=1',
      `partnerId=${'p'.repeat(5000)}`,
    ];
    for (const query of queries) expectRefused(await agencyAdmin.get(`/api/agency/${AGENCY}/bills?${query}`), query);
    const bodies: Record<string, string> = {
      'a bad month': '{"month":"2026-13"}',
      'a month object': '{"month":{"$gt":""}}',
      'an unknown key': '{"month":"2026-10","agencyId":"someone-else"}',
      'a __proto__ key': '{"month":"2026-10","__proto__":{"polluted":1}}',
      'an oversized partner id': JSON.stringify({ month: '2026-10', partnerId: 'p'.repeat(10_000) }),
      'no body': '',
    };
    for (const [label, body] of Object.entries(bodies)) {
      const reply =
        body === ''
          ? await agencyAdmin.send('POST', `/api/agency/${AGENCY}/bills/generate`, undefined)
          : await agencyAdmin.send('POST', `/api/agency/${AGENCY}/bills/generate`, body, json);
      expectRefused(reply, label);
    }
    const after = ok(await agencyAdmin.get(`/api/agency/${AGENCY}/bills?limit=100`)).body as { bills: unknown[] };
    expect(after.bills).toEqual(before.bills);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses bad signal reads: unknown channel, unparsable, reversed or over-long times, polluting keys', async () => {
    const path = '/api/devices/NM-ATTACK-1/signals';
    const queries = [
      'channel=__proto__&from=2026-11-22T21:00:00Z&to=2026-11-22T22:00:00Z',
      'channel=ecg&from=yesterday&to=2026-11-22T22:00:00Z',
      'channel=ecg&from=2026-11-22T22:00:00Z&to=2026-11-22T21:00:00Z',
      'channel=ecg&from=2026-11-01T00:00:00Z&to=2026-11-22T00:00:00Z',
      `channel=ecg&from=${'9'.repeat(10_000)}&to=2026-11-22T22:00:00Z`,
      'channel=ecg&channel=impe&from=2026-11-22T21:00:00Z&to=2026-11-22T22:00:00Z',
    ];
    for (const query of queries) expectRefused(await staff.get(`${path}?${query}`), query);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('checks the input before anything else: a malformed lending is 400 even signed out, a well-formed one 401', async () => {
    const outsider = new BrowserClient(test.server.url, { from: '127.0.9.3' });
    const path = '/api/devices/NM-ATTACK-1/borrows';
    expectRefused(await outsider.send('POST', path, '{"toDomainId":"x","from":"2026-11-01T00:00:00.000Z","until":{"$ne":null}}', json), 'bad until');
    const wellFormed = await outsider.send('POST', path, JSON.stringify({ toDomainId: DEMO_DOMAINS.facilityA, from: '2026-11-01T00:00:00.000Z' }), json);
    expect(wellFormed.status).toBe(401);
  });
}

describe('route schemas refuse bad input on PGlite', () => {
  routeSchemasRefuse('pglite');
});

describePostgres('route schemas refuse bad input on PostgreSQL', () => {
  routeSchemasRefuse('postgresql');
});
