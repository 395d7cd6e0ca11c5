/**
 * For the response tests (responses*.test.ts): a real server (PGlite, demo accounts, Better Auth)
 * whose own /api/openapi.json every answer is validated against, with the ajv that Fastify ships.
 * An answer whose status the document does not list fails (a 204 must be documented without content
 * and come without a body), and so does one the server logged as off its schema
 * (http/zodRouteSchemas.ts checks each as it is written): `offSchemaLines` lists those, which each
 * test file expects to be empty at its end.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { expect } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { makeTempDir } from '../testing/webDist.ts';
import { openApiPathOf, OPENAPI_PATH } from './openapi.ts';

interface Validate {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
interface AjvInstance {
  compile(schema: object): Validate;
}
// Fastify's own ajv (8, via @fastify/ajv-compiler), so no second validator is added to the project.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('@fastify/ajv-compiler'));
const Ajv2019 = (requireFromFastify('ajv/dist/2019') as { default: new (options: object) => AjvInstance }).default;

type Operation = { responses: Record<string, { content?: { 'application/json'?: { schema: object } } }> };
type Document = { paths: Record<string, Record<string, Operation>> };

export const SYSTEM = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
/** The demo accounts' facility, and a facility none of them belongs to. */
export const FACILITY_A = 'demo-facility-a';
export const FACILITY_OTHER = 'rs-other-facility';

export interface ConformanceServer {
  server: RunningServer;
  /** Writes as the system, for the records a test reads. */
  store: DocumentStore;
  /** A browser from its own address; signed in as the demo account when given. */
  client(email?: string): Promise<BrowserClient>;
  /** The reply's body is valid by the document's schema for this route (Fastify's syntax) and status. */
  conforms(method: string, route: string, reply: ClientReply): ClientReply;
  /** `METHOD /path status` of every answer checked. */
  seen: Set<string>;
  /** The server's log lines that say an answer missed its response schema. */
  offSchemaLines(): string[];
  stop(): Promise<void>;
}

/** Starts the server and writes the facilities (A in the demo corporation, and another one). */
export async function startConformanceServer(prefix: string): Promise<ConformanceServer> {
  const dir = await makeTempDir(prefix);
  const logLines: string[] = [];
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: 'memory://',
      DATA_DIR: dir.path,
      DEMO: '1',
      SIMULATE: '0',
      MQTT_PORT: '0',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '10000',
    }),
    { logger: { write: (line: string) => logLines.push(line) } },
  );
  const store = new DocumentStore(server.database, { error: () => undefined });
  await store.set(SYSTEM, 'domains/demo-corp', { name: 'デモ法人', kind: 'corporation' }, true);
  await store.set(SYSTEM, `domains/${FACILITY_A}`, { name: 'さくら苑', kind: 'facility', rootDomainId: 'demo-corp' }, true);
  await store.set(SYSTEM, `domains/${FACILITY_OTHER}`, { name: '別法人の施設', kind: 'facility' }, true);
  const document = (await (await fetch(`${server.url}${OPENAPI_PATH}`)).json()) as Document;

  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  const validators = new Map<string, Validate>();
  const seen = new Set<string>();
  let address = 20;
  return {
    server,
    store,
    seen,
    client: async (email) => {
      const browser = new BrowserClient(server.url, { from: `127.0.8.${address++}` });
      if (email !== undefined) expect((await browser.signIn(email, DEMO_PASSWORD)).status).toBe(200);
      return browser;
    },
    conforms: (method, route, reply) => {
      const path = openApiPathOf(route).path;
      const label = `${method} ${path} ${reply.status}`;
      const response = document.paths[path]?.[method.toLowerCase()]?.responses[String(reply.status)];
      expect(response, `${label} is not documented: ${reply.text.slice(0, 200)}`).toBeDefined();
      if (reply.status === 204) {
        // Documented without content, and answered without a body.
        expect(response?.content, `${label} documents a body`).toBeUndefined();
        expect(reply.text, `${label} has a body`).toBe('');
        seen.add(label);
        return reply;
      }
      const schema = response?.content?.['application/json']?.schema;
      expect(schema, `${label} has no schema`).toBeDefined();
      let validate = validators.get(label);
      if (validate === undefined) {
        validate = ajv.compile(schema ?? {});
        validators.set(label, validate);
      }
      expect(validate(reply.body), `${label}: ${JSON.stringify(validate.errors)} in ${reply.text.slice(0, 300)}`).toBe(true);
      seen.add(label);
      return reply;
    },
    offSchemaLines: () => logLines.filter((line) => line.includes('does not match its response schema')),
    stop: async () => {
      await server.stop();
      await dir.remove();
    },
  };
}
