/**
 * The API's machine-readable description, OpenAPI 3.1 (`GET /api/openapi.json`), and a reference page
 * rendered from it on the server (`GET /api/reference`: no script, no CDN).
 *
 * One source: every route comes from Fastify itself (an onRoute hook registered before any plugin,
 * so no route can be missing), and its parameters, query and body from the route's own zod schemas
 * (`schema: { summary, params, querystring, body }`): the objects Fastify validates the request
 * with before the handler runs (http/zodRouteSchemas.ts), so the document cannot drift from what
 * is checked. Its answers likewise from the route's `response` schemas (`{ 200: …, 404:
 * apiErrorBody }`), which check every answer as it is written (a 204, `noContent`, is documented
 * without content); a route answering a file names its content types (`produces: ['text/csv']`)
 * and documents only its error answers as JSON. A WebSocket route answers 101 (its messages are in
 * docs/api.md, named by the route's `description`).
 */
import type { FastifyInstance, FastifyPluginAsync, HTTPMethods, RouteOptions } from 'fastify';
import { APP_VERSION } from '@nemuri/shared/version';
import type { ZodTypeAny } from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { isZodSchema } from '../http/zodRouteSchemas.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const REFERENCE_PATH = '/api/reference';

/** A route as registered: its methods (HEAD twins left out) and URL in Fastify's syntax. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  websocket: boolean;
}

/** Paths for programs: the API, health and metrics. The web app's pages and files are not in it. */
export function isDocumentedUrl(url: string): boolean {
  return url.startsWith('/api/') || url === '/metrics';
}

/** Records every route registered after this call (all of them when called first). */
export function collectRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!isDocumentedUrl(route.url)) return;
    const methods: HTTPMethods[] = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD twin to every GET; it answers as the GET does.
      if (method === 'HEAD' && methods.length === 1 && routes.some((known) => known.url === route.url && known.method === 'GET')) continue;
      routes.push({ method, url: route.url, schema: route.schema, websocket: (route as { websocket?: boolean }).websocket === true });
    }
  });
  return routes;
}

/** `/api/rooms/:roomId/x` → `/api/rooms/{roomId}/x`; a wildcard becomes `{path}`. */
export function openApiPathOf(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        const name = segment.slice(1).replace(/\(.*$/, '');
        params.push(name);
        return `{${name}}`;
      }
      if (segment === '*') {
        params.push('path');
        return '{path}';
      }
      return segment;
    })
    .join('/');
  return { path, params };
}

type JsonSchema = Record<string, unknown>;

/** A success answer's body of a `produces` type: JSON is an object, text a string, anything else bytes. */
function bodyOfType(type: string): JsonSchema {
  if (type === 'application/json' || type.endsWith('+json')) return { type: 'object' };
  if (type.startsWith('text/')) return { type: 'string' };
  return { type: 'string', format: 'binary' };
}

function fromZod(schema: ZodTypeAny): JsonSchema {
  // Inlined (no $ref to #/definitions, which an OpenAPI document would not resolve).
  const json = zodToJsonSchema(schema, { $refStrategy: 'none', target: 'jsonSchema2019-09' }) as JsonSchema;
  delete json.$schema;
  numericBounds(json);
  return json;
}

/**
 * zod-to-json-schema writes `gt`/`lt` in draft 4's form (`exclusiveMinimum: true` beside
 * `minimum`) for every target but draft 7; 2019-09 and OpenAPI 3.1 take the bound itself, and a
 * validator refuses the boolean form (e.g. the domain record's `alertResoundMin`).
 */
function numericBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) numericBounds(item);
    return;
  }
  if (!isJsonSchema(node)) return;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (node[flag] === true && typeof node[bound] === 'number') {
      node[flag] = node[bound];
      delete node[bound];
    }
  }
  for (const value of Object.values(node)) numericBounds(value);
}

function isJsonSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each property of the query's object schema (or of each part of an intersection) as a parameter. */
function queryParameters(schema: JsonSchema): object[] {
  if (Array.isArray(schema.allOf)) return schema.allOf.filter(isJsonSchema).flatMap(queryParameters);
  const properties = isJsonSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.includes(name), schema: property }));
}

const TAG_NAMES: Record<string, string> = {
  documents: 'Documents',
  monitoring: 'Monitoring',
  integrations: 'Integrations',
  health: 'Health',
  auth: 'Sign-in (Better Auth)',
};

function tagOf(url: string): string {
  if (url === '/metrics') return 'Metrics';
  const first = url.split('/')[2] ?? 'api';
  return TAG_NAMES[first] ?? first.charAt(0).toUpperCase() + first.slice(1);
}

/** The path parameters, typed by the route's `params` schema where it has one. */
function pathParameters(url: string, params: JsonSchema | undefined): object[] {
  const properties = params !== undefined && isJsonSchema(params.properties) ? params.properties : {};
  return openApiPathOf(url).params.map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

/** What each documented status means across the API (docs/api.md, "Errors"). */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'Done; no content',
  400: 'The input does not match the documented schema, or is refused (`invalid-argument`, the message names each problem)',
  401: 'Not signed in and no valid API key (`unauthenticated`)',
  403: 'Signed in, but not allowed (`permission-denied`)',
  404: 'Not found, or outside the caller’s scope (`not-found`)',
  409: 'Conflicts with what exists (`already-exists`)',
  410: 'No longer valid (expired or used)',
  412: 'A precondition does not hold (`failed-precondition`)',
  413: 'The body is larger than the route takes',
  415: 'A content type the route does not take',
  429: 'Too many requests: wait (`Retry-After`) and try again',
  501: 'A query the document engine does not support (`unimplemented`)',
  503: 'Not ready (`unavailable`)',
};

function operationOf(route: RegisteredRoute): Record<string, unknown> {
  const schema = isJsonSchema(route.schema) ? route.schema : {};
  const zodOf = (part: string): JsonSchema | undefined => (isZodSchema(schema[part]) ? fromZod(schema[part]) : undefined);
  const parameters = pathParameters(route.url, zodOf('params'));
  const query = zodOf('querystring');
  if (query !== undefined) parameters.push(...queryParameters(query));
  const body = zodOf('body');
  const responses: Record<string, unknown> = {};
  if (isJsonSchema(schema.response)) {
    for (const [status, response] of Object.entries(schema.response)) {
      if (!isZodSchema(response)) continue;
      // A 204 has no body (HTTP): its schema (`noContent`) only says that the route answers it.
      if (status === '204') {
        responses[status] = { description: STATUS_DESCRIPTIONS[status] };
        continue;
      }
      responses[status] = { description: STATUS_DESCRIPTIONS[status] ?? status, content: { 'application/json': { schema: fromZod(response) } } };
    }
  }
  if (Array.isArray(schema.produces) && responses['200'] === undefined) {
    responses['200'] = { description: 'OK', content: Object.fromEntries((schema.produces as string[]).map((type) => [type, { schema: bodyOfType(type) }])) };
  }
  if (route.websocket) {
    responses['101'] = {
      description: 'Switching Protocols: the connection becomes a WebSocket whose messages are JSON text, one per frame (see the operation’s description)',
    };
  }
  if (Object.keys(responses).length === 0) {
    responses.default = { description: 'JSON; errors are `{ code, message }` with the HTTP status (docs/api.md)' };
  }
  const summary =
    (typeof schema.summary === 'string' ? schema.summary : undefined) ?? (route.websocket ? `${route.url} (WebSocket)` : `${route.method} ${route.url}`);
  return {
    operationId: `${route.method.toLowerCase()}${openApiPathOf(route.url)
      .path.replace(/[{}]/g, '')
      .split(/[/\-._]/)
      .filter(Boolean)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')}`,
    summary,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    tags: [tagOf(route.url)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body !== undefined ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
    ...(route.url === '/metrics' ? { security: [{ metricsToken: [] }, { session: [] }] } : {}),
  };
}

/** The OpenAPI 3.1 document of these routes. */
export function openApiDocument(routes: readonly RegisteredRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method))) {
    const { path } = openApiPathOf(route.url);
    const method = route.method.toLowerCase();
    if (!['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) continue;
    paths[path] ??= {};
    paths[path][method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nemuri Monitor API',
      version: APP_VERSION,
      description:
        'Sleep and biometric monitoring for care facilities. Signed-in browsers use the session cookie; integrations use an API key (`Authorization: Bearer nmk_…`, created on /domain-config) within its scopes. Errors answer `{ code, message }`. See docs/api.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token', description: 'The session cookie set by sign-in (/api/auth/…)' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'An integration API key (nmk_…) with scopes rooms.read, alerts.read, alerts.acknowledge' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics only' },
      },
    },
    security: [{ session: [] }, { apiKey: [] }],
    paths,
  };
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The reference page: every operation with its parameters and body schema, on one page. */
export function referencePage(document: Record<string, unknown>): string {
  const paths = document.paths as Record<
    string,
    Record<
      string,
      {
        summary: string;
        tags: string[];
        parameters?: { name: string; in: string; required: boolean }[];
        requestBody?: { content: { 'application/json': { schema: unknown } } };
      }
    >
  >;
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = (operation.parameters ?? [])
        .map((parameter) => `<li><code>${escapeHtml(parameter.name)}</code> (${parameter.in}${parameter.required ? ', 必須' : ''})</li>`)
        .join('');
      const body =
        operation.requestBody === undefined
          ? ''
          : `<details><summary>リクエスト本文 (JSON Schema)</summary><pre>${escapeHtml(JSON.stringify(operation.requestBody.content['application/json'].schema, null, 2))}</pre></details>`;
      const entry = `<section><h3><span class="m m-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3><p>${escapeHtml(operation.summary)}</p>${parameters === '' ? '' : `<ul>${parameters}</ul>`}${body}</section>`;
      const tag = operation.tags[0] ?? 'API';
      byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
    }
  }
  const info = document.info as { title: string; version: string; description: string };
  const toc = [...byTag.keys()].map((tag) => `<li><a href="#${encodeURIComponent(tag)}">${escapeHtml(tag)}</a></li>`).join('');
  const sections = [...byTag.entries()].map(([tag, entries]) => `<h2 id="${encodeURIComponent(tag)}">${escapeHtml(tag)}</h2>${entries.join('')}`).join('');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} ${escapeHtml(info.version)} — API リファレンス</title>
<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { max-width: 60rem; margin: 0 auto; padding: 1rem; line-height: 1.5; }
code, pre { font-family: ui-monospace, monospace; } pre { overflow-x: auto; padding: .5rem; background: rgba(127,127,127,.12); }
section { border-top: 1px solid rgba(127,127,127,.3); padding: .25rem 0; } h3 { font-size: 1rem; margin: .5rem 0 .25rem; word-break: break-all; }
.m { display: inline-block; min-width: 4.5em; text-align: center; border-radius: 4px; color: #fff; background: #555; font-size: .8rem; padding: 0 .3em; }
.m-get { background: #1971c2; } .m-post { background: #2f9e44; } .m-put, .m-patch { background: #e67700; } .m-delete { background: #c92a2a; }
</style></head><body>
<h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1>
<p>${escapeHtml(info.description)}</p>
<p>機械可読な定義: <a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a> (OpenAPI 3.1)</p>
<ul>${toc}</ul>
${sections}
</body></html>
`;
}

export interface OpenApiPluginOptions {
  routes: readonly RegisteredRoute[];
}

/** Serves the document and the page; built at the first request, once every route is registered. */
export const openApiPlugin: FastifyPluginAsync<OpenApiPluginOptions> = async (app, { routes }) => {
  let document: Record<string, unknown> | undefined;
  let page: string | undefined;
  const documentNow = (): Record<string, unknown> => (document ??= openApiDocument(routes));
  app.get(OPENAPI_PATH, { schema: { summary: 'This document (OpenAPI 3.1)', produces: ['application/json'] } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(documentNow()),
  );
  app.get(
    REFERENCE_PATH,
    { schema: { summary: 'The API reference, an HTML page rendered from this document', produces: ['text/html'] } },
    async (_request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send((page ??= referencePage(documentNow()))),
  );
};
