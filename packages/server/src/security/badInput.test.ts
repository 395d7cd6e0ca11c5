/**
 * Bad strings and depth (security issue, finding 14): bodies with NUL, unpaired surrogates,
 * 5,000-deep nesting or prototype keys answered 500 (or worse). Sent as an outsider would, as raw
 * JSON text, to several kinds of endpoint (documents, transactions, queries, reports, account,
 * agency, sign-up and registration under Better Auth), each must answer 400 `invalid-argument`, and
 * the server must go on answering normally afterwards, with Object.prototype untouched.
 */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { describePostgres } from '../testing/postgres.ts';

const deep = (depth: number, open: string, close: string, inner = '1'): string => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Bodies as raw JSON text: `wrap` puts the bad part where the endpoint reads its input. */
const BAD_PARTS: Record<string, string> = {
  'NUL in a value': '"a\\u0000b"',
  'unpaired high surrogate': '"x\\ud800"',
  'unpaired low surrogate': '"\\udc00y"',
  'NUL in a key': '{"a\\u0000": 1}',
  'unpaired surrogate in a key': '{"\\ud83d": 1}',
  '__proto__ key': '{"__proto__": {"polluted": 1}}',
  '__proto__ field path': '{"__proto__.polluted": 1}',
  'constructor.prototype': '{"constructor": {"prototype": {"polluted": 1}}}',
  '5,000-deep object': deep(5000, '{"a":', '}'),
  '5,000-deep array': deep(5000, '[', ']'),
  '100,000-deep array': deep(100_000, '[', ']'),
};

interface Target {
  name: string;
  method: string;
  path: string;
  /** Who sends it: a demo account, or nobody (sign-up, registration). */
  as: string | null;
  wrap(bad: string): string;
}

const TARGETS: Target[] = [
  {
    name: 'document set',
    method: 'PUT',
    path: '/api/documents/rooms/bad-input-1',
    as: 'admin@example.com',
    wrap: (bad) => `{"data":{"domainId":"${DEMO_DOMAINS.facilityA}","name":${bad}}}`,
  },
  {
    name: 'document update',
    method: 'PATCH',
    path: '/api/documents/rooms/bad-input-0',
    as: 'staff@example.com',
    wrap: (bad) => `{"data":{"residentNote":${bad}}}`,
  },
  {
    name: 'transaction commit',
    method: 'POST',
    path: '/api/documents/commit',
    as: 'staff@example.com',
    wrap: (bad) => `{"reads":[],"writes":[{"op":"update","path":"rooms/bad-input-0","data":{"residentNote":${bad}}}]}`,
  },
  {
    name: 'query',
    method: 'POST',
    path: '/api/documents/query',
    as: 'staff@example.com',
    wrap: (bad) => `{"query":{"collection":"rooms","where":[["name","==",${bad}]]}}`,
  },
  { name: 'report comment', method: 'PUT', path: '/api/reports/rooms/bad-input-0/comment', as: 'staff@example.com', wrap: (bad) => `{"comment":${bad}}` },
  { name: 'account phone', method: 'PUT', path: '/api/account/profile/phone', as: 'staff@example.com', wrap: (bad) => `{"phone":${bad}}` },
  {
    name: 'agency bills',
    method: 'POST',
    path: `/api/agency/${DEMO_DOMAINS.agency}/bills/generate`,
    as: 'agency-admin@example.com',
    wrap: (bad) => `{"month":${bad}}`,
  },
  {
    name: 'sign-up',
    method: 'POST',
    path: '/api/auth/sign-up/email',
    as: null,
    wrap: (bad) => `{"name":${bad},"email":"bad-input@example.com","password":"correct horse battery"}`,
  },
  {
    name: 'registration',
    method: 'POST',
    path: '/api/auth/registration/domain',
    as: null,
    wrap: (bad) => `{"domainName":${bad},"name":"x","email":"bad-reg@example.com","password":"correct horse battery"}`,
  },
];

function badInputRefused(choice: DatabaseChoice): void {
  let test: TestServer;
  const clients = new Map<string | null, BrowserClient>();

  beforeAll(async () => {
    test = await startTestServer(choice);
    for (const email of new Set(TARGETS.map((target) => target.as))) {
      clients.set(email, email === null ? new BrowserClient(test.server.url, { from: '127.0.9.1' }) : await signedIn(test.server, email));
    }
    const admin = clients.get('admin@example.com') as DocumentsClient;
    ok(await admin.setDocument('rooms/bad-input-0', { domainId: DEMO_DOMAINS.facilityA, name: '入力検査室' }));
  }, 120_000);
  afterAll(async () => {
    await test?.stop();
  });

  for (const target of TARGETS) {
    it(`answers 400 to every bad body at ${target.name} (${target.method} ${target.path})`, async () => {
      const client = clients.get(target.as) as BrowserClient;
      for (const [label, bad] of Object.entries(BAD_PARTS)) {
        const reply = await client.send(target.method, target.path, target.wrap(bad), { 'content-type': 'application/json' });
        expect(reply.status, `${label}: ${reply.text.slice(0, 300)}`).toBe(400);
        expect((reply.body as { code?: string }).code, label).toBe('invalid-argument');
      }
    });
  }

  it('refuses NUL and broken Unicode in URL parameters and queries too', async () => {
    const staff = clients.get('staff@example.com') as BrowserClient;
    for (const path of ['/api/documents/rooms/a%00b', '/api/reports/data?rooms=a%00b&from=2026-11-01&to=2026-11-02', '/api/documents/rooms/%ED%A0%80']) {
      const reply = await staff.get(path);
      expect(reply.status, `${path}: ${reply.text}`).toBe(400);
    }
    // A query value that is not UTF-8 stays as its percent-escapes: a name that matches nothing.
    const undecodable = await staff.get('/api/reports/data?rooms=%ED%A0%80&from=2026-11-01&to=2026-11-02');
    expect(undecodable.status).toBe(404);
  });

  it('still answers normally afterwards, with nothing polluted', async () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const staff = clients.get('staff@example.com') as DocumentsClient;
    const room = ok(await staff.getDocument('rooms/bad-input-0'));
    expect((room.body as { document: { name: string } }).document.name).toBe('入力検査室');
    ok(await staff.updateDocument('rooms/bad-input-0', { residentNote: '絵文字 😀 も普通に保存できる' }));
    expect(((await staff.getDocument('rooms/bad-input-0')).body as { document: { residentNote: string } }).document.residentNote).toBe(
      '絵文字 😀 も普通に保存できる',
    );
    // 32 levels are still accepted by the guard (the engine then judges the query on its own terms).
    const reply = await staff.send('POST', '/api/documents/query', `{"query":{"collection":"rooms"},"x":${deep(30, '[', ']')}}`, {
      'content-type': 'application/json',
    });
    expect(reply.status).toBe(200);
    const fresh = new BrowserClient(test.server.url, { from: '127.0.9.2' });
    expect((await fresh.signIn('staff@example.com', 'wrong password')).status).not.toBe(500);
  });
}

describe('bad strings and depth on PGlite', () => {
  badInputRefused('pglite');
});

describePostgres('bad strings and depth on PostgreSQL', () => {
  badInputRefused('postgresql');
});
