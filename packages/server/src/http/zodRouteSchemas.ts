/**
 * Route schemas are the shared zod schemas: a route declares `schema: { body, querystring, params }`
 * with the same objects the web app checks its forms with, and Fastify runs them before the handler
 * (this validator compiler). The handler then reads the parsed value (defaults filled in, numbers
 * coerced, unknown keys refused by `.strict()`) from `request.body` / `request.query` /
 * `request.params`, typed by `ZodTypeProvider`. The OpenAPI document (openapi/openapi.ts) reads the
 * very same schemas from the routes, so what is documented is what is checked.
 *
 * A refusal answers the uniform 400 `{ code: 'invalid-argument', message }`, the message naming each
 * problem as `path: message`, joined by `; `, plus `reason` when a refinement names one (`params:
 * { reason }`, e.g. `invalid-phone`, which the screen picks its message by). An absent body reads as `{}` (so `z.object({}).strict()`
 * accepts a bodiless POST). The schemas stay on `zod/v3`, which zod-to-json-schema reads; the npm
 * `fastify-type-provider-zod` speaks zod 4's own API instead.
 */
import type { FastifyBaseLogger, FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import type { z, ZodTypeAny } from 'zod/v3';
import { ApiError } from './errors.ts';
import { appWide } from './appWide.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the OpenAPI document and the reference page. */
    summary?: string;
    /** More for the OpenAPI document where one line is not enough (a WebSocket's protocol, a mounted library's endpoints). */
    description?: string;
    /** The content types of a success answer that is not JSON (a file, a page), which the OpenAPI document names. */
    produces?: readonly string[];
  }
}

/** `request.body` and friends typed as the parsed output of the route's zod schema. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends ZodTypeAny ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends ZodTypeAny ? z.input<this['schema']> : unknown;
}

export function isZodSchema(value: unknown): value is ZodTypeAny {
  return typeof value === 'object' && value !== null && '_def' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

interface Issue {
  path: readonly PropertyKey[];
  message: string;
  params?: { reason?: unknown };
}

/** What a refusal says: each problem as `path: message` (the part's name when the whole value is wrong). */
export function issuesMessage(issues: readonly Issue[], part: string): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || part}: ${issue.message}`).join('; ');
}

/** The first `params.reason` a refinement gave (shared schemas name the screen's message so), if any. */
function reasonOf(issues: readonly Issue[]): string | undefined {
  const reason = issues.find((issue) => typeof issue.params?.reason === 'string')?.params?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, method, url, httpPart }) => {
  // A JSON schema here would be checked by nobody: refuse it when the route is registered.
  if (!isZodSchema(schema)) throw new Error(`${method} ${url}: the ${httpPart ?? 'request'} schema must be a zod schema (http/zodRouteSchemas.ts)`);
  const part = PART_NAMES[httpPart ?? ''] ?? 'input';
  return (data: unknown) => {
    // Fastify hands an absent body over as null.
    const parsed = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    if (parsed.success) return { value: parsed.data as unknown };
    return { error: new ApiError(400, 'invalid-argument', issuesMessage(parsed.error.issues, part), reasonOf(parsed.error.issues)) };
  };
};

/**
 * A route's `response` schemas (`{ 200: schema, 404: apiErrorBody, … }`) check each answer of that
 * status as it is written, and the OpenAPI document shows them. A mismatch is logged as an error,
 * never answered as one: the answer goes out as the handler made it (JSON.stringify, as without a
 * schema), so a schema that lags behind a route cannot break the route; the tests that call the
 * routes validate what they get against the document and fail on any difference.
 */
export function zodSerializerCompiler(log: FastifyBaseLogger): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    if (!isZodSchema(schema)) throw new Error(`${method} ${url}: the ${httpStatus} response schema must be a zod schema (http/zodRouteSchemas.ts)`);
    return (data: unknown) => {
      const checked = schema.safeParse(data);
      if (!checked.success)
        log.error(
          { method, url, status: httpStatus, problems: issuesMessage(checked.error.issues, 'response') },
          'an answer does not match its response schema',
        );
      return JSON.stringify(data);
    };
  };
}

/** Every route registered after this plugin validates its input, and checks its answers, with its zod route schemas. */
export const zodRouteSchemasPlugin = appWide('zodRouteSchemas', async (app) => {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler(app.log));
});
