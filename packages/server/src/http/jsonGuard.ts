/**
 * Every JSON body the server reads goes through one guard, before any handler sees it. It answers
 * 400 `invalid-argument` (instead of a 500 from deep in the database or a stack overflow) for:
 *  - nesting deeper than JSON_LIMITS.maxDepth (objects and arrays; counted on the raw text before
 *    parsing, so a million `[` costs one linear pass and never recurses);
 *  - strings, values and keys alike, holding U+0000 (PostgreSQL's text and jsonb cannot store it)
 *    or an unpaired UTF-16 surrogate (`"\ud800"`: not Unicode text, no UTF-8 encoding exists);
 *  - keys `__proto__`, `constructor` or `prototype`, also as a segment of a dotted field path
 *    (`"__proto__.polluted"`): the prototype-pollution class, refused at the door as well as in
 *    the document engine.
 * It replaces Fastify's `application/json` parser for the whole app, and checks the bodies that
 * plugins take raw (Better Auth's routes under /api/auth: sign-up, registration, invitations) in
 * a preValidation hook. URL parameters and query strings get the string check too.
 * Sockets parse their messages with `parseGuardedJson` for the same rules.
 */
import { FORBIDDEN_KEYS, MAX_DEPTH } from '@nemuri/shared/documents/safeData';
import type { FastifyRequest } from 'fastify';
import { appWide } from './appWide.ts';
import { ApiError } from './errors.ts';

export const JSON_LIMITS = {
  /** Deepest nesting of objects and arrays in a request body: the document engine's (the deepest product document is < 10). */
  maxDepth: MAX_DEPTH,
} as const;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string is refused, or null when it is fine. */
export function badStringReason(text: string): string | null {
  if (text.includes('\u0000')) return 'NUL 文字 (U+0000) を含む文字列は受け付けられません';
  if (LONE_SURROGATE.test(text)) return '対になっていないサロゲート (不正な Unicode) を含む文字列は受け付けられません';
  return null;
}

/** Why a key is refused, or null. Dotted keys are field paths in updates, so each segment counts. */
export function badKeyReason(key: string): string | null {
  const reason = badStringReason(key);
  if (reason !== null) return `キー: ${reason}`;
  if (FORBIDDEN_KEYS.has(key) || (key.includes('.') && key.split('.').some((segment) => FORBIDDEN_KEYS.has(segment.replaceAll('`', ''))))) {
    return `キー "${key}" は使えません (__proto__, constructor, prototype は予約されています)`;
  }
  return null;
}

function invalid(message: string): ApiError {
  return new ApiError(400, 'invalid-argument', message);
}

/** Throws when objects and arrays nest deeper than `maxDepth` in the JSON text; one pass, no recursion. */
export function assertJsonDepth(text: string, maxDepth: number = JSON_LIMITS.maxDepth): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) throw invalid(`JSON の入れ子が深すぎます (最大 ${maxDepth} 段)`);
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
}

/** JSON.parse with the guard's rules; throws ApiError 400 `invalid-argument`. */
export function parseGuardedJson(text: string): unknown {
  assertJsonDepth(text);
  try {
    return JSON.parse(text, (key, value: unknown) => {
      const keyReason = key === '' ? null : badKeyReason(key);
      if (keyReason !== null) throw invalid(keyReason);
      if (typeof value === 'string') {
        const reason = badStringReason(value);
        if (reason !== null) throw invalid(reason);
      }
      return value;
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid(`JSON として読めません: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The same string rules for URL parameters and query values (decoded by Fastify already). */
function checkUrlValues(values: unknown, where: string): void {
  if (typeof values !== 'object' || values === null) return;
  for (const [key, value] of Object.entries(values)) {
    for (const text of [key, ...(Array.isArray(value) ? value : [value])]) {
      if (typeof text !== 'string') continue;
      const reason = badStringReason(text);
      if (reason !== null) throw invalid(`${where}: ${reason}`);
    }
  }
}

function isJsonContentType(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type);
}

export const jsonGuardPlugin = appWide('jsonGuard', async (app) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      // As Fastify's own parser: a JSON content type promises a body.
      if (text.trim() === '') throw invalid('application/json の本文が空です');
      done(null, parseGuardedJson(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addHook('preValidation', async (request) => {
    checkUrlValues(request.params, 'URL');
    checkUrlValues(request.query, 'クエリ');
    // Routes that take the body raw (Better Auth) parse it themselves: the same rules first.
    if ((Buffer.isBuffer(request.body) || typeof request.body === 'string') && isJsonContentType(request)) {
      const text = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : request.body;
      if (text.trim() !== '') parseGuardedJson(text);
    }
  });
});
