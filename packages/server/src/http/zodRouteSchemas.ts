/**
 * Route schemas are the shared zod schemas: a route declares `schema: { body, querystring, params }`
 * with the same objects the web app checks its forms with, and Fastify runs them before the handler
 * (this validator compiler). The handler then reads the parsed value (defaults filled in, numbers
 * coerced, unknown keys refused by `.strict()`) from `request.body` / `request.query` /
 * `request.params`, typed by `ZodTypeProvider`. The OpenAPI document (openapi/openapi.ts) reads the
 * very same schemas from the routes, so what is documented is what is checked.
 *
 * A refusal answers the uniform 400 `{ code: 'invalid-argument', message }`, the message naming each
 * problem as `path: message`, joined by `; `. An absent body reads as `{}` (so `z.object({}).strict()`
 * accepts a bodiless POST). The schemas stay on `zod/v3`, which zod-to-json-schema reads; the npm
 * `fastify-type-provider-zod` speaks zod 4's own API instead.
 */
import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { z, ZodTypeAny } from 'zod/v3';
import { ApiError } from './errors.ts';
import { appWide } from './appWide.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the OpenAPI document and the reference page. */
    summary?: string;
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
}

/** What a refusal says: each problem as `path: message` (the part's name when the whole value is wrong). */
export function issuesMessage(issues: readonly Issue[], part: string): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || part}: ${issue.message}`).join('; ');
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
    return { error: new ApiError(400, 'invalid-argument', issuesMessage(parsed.error.issues, part)) };
  };
};

/** Every route registered after this plugin validates its input with its zod route schemas. */
export const zodRouteSchemasPlugin = appWide('zodRouteSchemas', async (app) => {
  app.setValidatorCompiler(zodValidatorCompiler);
});
