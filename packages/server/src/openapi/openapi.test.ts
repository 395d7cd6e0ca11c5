/**
 * GET /api/openapi.json: valid OpenAPI 3.1 (checked by a validator library against the specification's
 * own schema), with every API route of the running app in it; GET /api/reference renders it.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Auth } from '../auth/auth.ts';
import { AUTH_BASE_PATH } from '../auth/http.ts';
import { OUR_AUTH_ROUTES } from '../auth/ourAuthRoutes.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { makeTestWebDist, type TempDir } from '../testing/webDist.ts';
import { isDocumentedUrl, openApiPathOf, OPENAPI_PATH, REFERENCE_PATH } from './openapi.ts';

interface OpenApi {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        requestBody?: { content: Record<string, { schema?: { additionalProperties?: unknown } }> };
        parameters?: { name: string; in: string; schema?: { type?: string; maximum?: number; enum?: unknown[]; pattern?: string } }[];
      }
    >
  >;
}

/**
 * The routes as Fastify's router has them (printRoutes' tree, read back into `METHOD url` lines):
 * a second source, independent of the onRoute hook the document is built from.
 */
function routerRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const found: string[] = [];
  const stack: { depth: number; prefix: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│]*)(?:[├└]── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length;
    const segment = match[2] ?? '';
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const prefix = `${stack.at(-1)?.prefix ?? ''}${segment}`;
    stack.push({ depth, prefix });
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) found.push(`${method} ${prefix}`);
  }
  return found;
}

describe('OpenAPI', () => {
  let webDist: TempDir;
  let database: Database;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    webDist = await makeTestWebDist();
    database = await openPglite(null);
    await migrate(database);
    app = await buildApp({
      config: loadConfig({ WEB_DIST: webDist.path, DATA_DIR: join(webDist.path, 'data'), LOG_LEVEL: 'silent' }),
      database,
      auth: new Promise<Auth>(() => undefined),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    await database.close();
    await webDist.remove();
  });

  it('is valid OpenAPI 3.1 by the specification’s schema', async () => {
    const response = await fetch(`${url}${OPENAPI_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await response.json()) as OpenApi;
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const ids = Object.values(document.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has every API route of the router, and only routes the router has', async () => {
    const document = (await (await fetch(`${url}${OPENAPI_PATH}`)).json()) as OpenApi;
    const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.keys(byMethod).map((method) => ({ method: method.toUpperCase(), path })),
    );
    const inDocument = new Set(operations.map(({ method, path }) => `${method} ${path}`));
    const routed = routerRoutes(app)
      .map((line) => {
        const [method = '', routeUrl = ''] = line.split(' ');
        return { method, routeUrl };
      })
      .filter(({ method, routeUrl }) => isDocumentedUrl(routeUrl) && method !== 'HEAD')
      .map(({ method, routeUrl }) => `${method} ${openApiPathOf(routeUrl).path}`);
    expect(routed.length).toBeGreaterThan(50);
    expect(routed.filter((line) => !inDocument.has(line))).toEqual([]);
    // printRoutes leaves wildcard routes out of its flat listing: the other way round asks the router.
    const unknown = operations.filter(({ method, path }) => {
      const routeUrl = path.replace(/\{path\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
      return !app.hasRoute({ method: method as 'GET', url: routeUrl });
    });
    expect(unknown).toEqual([]);
    for (const wildcard of ['GET /api/documents/{path}', 'POST /api/auth/{path}']) expect(inDocument.has(wildcard), wildcard).toBe(true);
  });

  // The document's schemas are the handlers': what the document refuses, the server refuses before
  // any handler runs (400 naming the field), and what it allows reaches the handler (401 signed out).
  it('documents the very schemas the routes validate with: an unknown key or a value past a documented maximum is refused', async () => {
    const document = (await (await fetch(`${url}${OPENAPI_PATH}`)).json()) as OpenApi;
    // A path the documented parameters accept, so that what is refused is the body or the query.
    const sample = (schema: { enum?: unknown[]; pattern?: string } | undefined): string =>
      typeof schema?.enum?.[0] === 'string' ? schema.enum[0] : schema?.pattern?.includes('\\d{4}') === true ? '2026-01-01' : 'x1';
    let bodies = 0;
    let maxima = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const pathSchemas = new Map(
          (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter.schema]),
        );
        const concrete = (template: string) => template.replace(/\{(\w+)\}/g, (_match, name: string) => sample(pathSchemas.get(name)));
        const key = `${method.toUpperCase()} ${path}`;
        const body = operation.requestBody?.content['application/json']?.schema;
        if (body?.additionalProperties === false) {
          bodies++;
          const refused = await fetch(`${url}${concrete(path)}`, {
            method: method.toUpperCase(),
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ zzUnknownKey: 1 }),
          });
          // Our endpoints under /api/auth answer their own code (ourAuthRoutes.ts `refusal`), some with their fixed message.
          const refusal = OUR_AUTH_ROUTES.find((route) => `${AUTH_BASE_PATH}${route.path}` === path && route.method === method.toUpperCase())?.refusal;
          expect(refused.status, key).toBe(refusal?.status ?? 400);
          const answer = (await refused.json()) as { code: string; message: string };
          expect(answer.code, key).toBe(refusal?.code ?? 'invalid-argument');
          expect(answer.message, key).toContain(refusal?.message ?? 'zzUnknownKey');
        }
        for (const parameter of operation.parameters ?? []) {
          const maximum = parameter.schema?.maximum;
          if (parameter.in !== 'query' || parameter.schema?.type !== 'integer' || typeof maximum !== 'number') continue;
          maxima++;
          const target = `${url}${concrete(path)}?${parameter.name}=`;
          const past = await fetch(`${target}${maximum + 1}`, { method: method.toUpperCase() });
          expect(past.status, `${key} ${parameter.name}`).toBe(400);
          expect(((await past.json()) as { message: string }).message, key).toContain(`${parameter.name}: `);
          const within = await fetch(`${target}${maximum}`, { method: method.toUpperCase() });
          // Other required parameters may be missing: the maximum itself is never what is refused.
          const withinMessage = within.status === 400 ? ((await within.json()) as { message: string }).message : '';
          expect(withinMessage, `${key} ${parameter.name}=${maximum}`).not.toContain(`${parameter.name}: `);
        }
      }
    }
    expect(bodies).toBeGreaterThan(5);
    expect(maxima).toBeGreaterThan(3);
  });

  it('renders a reference page on the server, with no outside script or style', async () => {
    const response = await fetch(`${url}${REFERENCE_PATH}`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('<html lang="ja">');
    expect(page).toContain('/api/health/ready');
    expect(page).not.toMatch(/<script|https?:\/\//);
  });
});
