/**
 * Test support for the document engine: a real server (DEMO=1, so the demo accounts exist) on
 * PGlite in memory or on a PostgreSQL test schema, and signed-in clients per demo account.
 */
import { join } from 'node:path';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { createTestSchema } from '../testing/postgres.ts';
import { makeTempDir } from '../testing/webDist.ts';

export type DatabaseChoice = 'pglite' | 'postgresql';

export interface TestServer {
  server: RunningServer;
  logLines: string[];
  stop(): Promise<void>;
}

export async function startTestServer(choice: DatabaseChoice): Promise<TestServer> {
  const dir = await makeTempDir('nemuri-documents-');
  const schema = choice === 'postgresql' ? await createTestSchema() : null;
  const logLines: string[] = [];
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: schema?.url ?? 'memory://',
      DATA_DIR: dir.path,
      DEMO: '1',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '10000',
    }),
    { logger: { write: (line) => logLines.push(line) } },
  );
  return {
    server,
    logLines,
    async stop() {
      await server.stop();
      await schema?.drop();
      await dir.remove();
    },
  };
}

/** A client signed in as the demo account with this e-mail. */
export async function signedIn(server: RunningServer, email: string): Promise<DocumentsClient> {
  const client = new DocumentsClient(server.url);
  const reply = await client.signIn(email, DEMO_PASSWORD);
  if (reply.status !== 200) throw new Error(`sign-in as ${email} answered ${reply.status}: ${reply.text}`);
  return client;
}

export function demoAccount(email: string): (typeof DEMO_ACCOUNTS)[number] {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === email);
  if (account === undefined) throw new Error(email);
  return account;
}

/** The HTTP contract of /api/documents as a small client. */
export class DocumentsClient extends BrowserClient {
  getDocument(path: string): Promise<ClientReply> {
    return this.get(`/api/documents/${path}`);
  }
  setDocument(path: string, data: unknown, merge = false): Promise<ClientReply> {
    return this.send('PUT', `/api/documents/${path}`, JSON.stringify({ data, merge }), { 'content-type': 'application/json' });
  }
  updateDocument(path: string, data: unknown): Promise<ClientReply> {
    return this.send('PATCH', `/api/documents/${path}`, JSON.stringify({ data }), { 'content-type': 'application/json' });
  }
  deleteDocument(path: string): Promise<ClientReply> {
    return this.send('DELETE', `/api/documents/${path}`, undefined);
  }
  query(query: unknown): Promise<ClientReply> {
    return this.post('/api/documents/query', { query });
  }
  count(query: unknown): Promise<ClientReply> {
    return this.post('/api/documents/count', { query });
  }
  lookup(body: unknown): Promise<ClientReply> {
    return this.post('/api/documents/lookup', body);
  }
  /** The ids a query returns (fails on a non-200 answer). */
  async ids(query: unknown): Promise<string[]> {
    const reply = await this.query(query);
    if (reply.status !== 200) throw new Error(`query answered ${reply.status}: ${reply.text}`);
    return (reply.body as { documents: { documentReferenceId: string }[] }).documents.map((document) => document.documentReferenceId);
  }
}

/** Fails unless the answer is 200. */
export function ok(reply: ClientReply): ClientReply {
  if (reply.status !== 200) throw new Error(`answered ${reply.status}: ${reply.text}`);
  return reply;
}
