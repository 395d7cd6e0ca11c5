/**
 * What the document engine takes from a caller before it walks or stores it (security issue 17,
 * findings 1 and 14). Field paths and keys are used as object keys on the server: `__proto__`,
 * `constructor` and `prototype` would reach `Object.prototype` of the whole process, so they are
 * refused wherever a path or key is read (data, field paths, queries, transactions, live
 * subscriptions, merges). Strings with U+0000 or an unpaired surrogate cannot be stored in jsonb
 * (PostgreSQL refuses them mid-transaction), and deeply nested data costs recursion on every read:
 * both are refused up front as bad input, not discovered as a 500 later.
 */
import { DocumentError } from './errors.ts';

/** Keys that name the prototype chain rather than data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Nesting of objects and arrays a record or a query value may have. */
export const MAX_DEPTH = 32;

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is exactly what this must find
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isBadText(text: string): boolean {
  return BAD_TEXT.test(text);
}

export const SAFE_DATA_MESSAGES = {
  forbiddenKey: (key: string) => `Invalid key (${key}): __proto__, constructor and prototype are not allowed as field names`,
  badText: (where: string) => `Invalid text in ${where}: strings must not contain U+0000 or unpaired surrogates`,
  tooDeep: `Invalid data: nested deeper than ${MAX_DEPTH} levels`,
} as const;

/** Refuses a key (or field-path segment) that is not plain data. */
export function checkKey(key: string): void {
  if (FORBIDDEN_KEYS.has(key)) throw new DocumentError('invalid-argument', SAFE_DATA_MESSAGES.forbiddenKey(key));
  if (isBadText(key)) throw new DocumentError('invalid-argument', SAFE_DATA_MESSAGES.badText('a field name'));
}

/**
 * Refuses a value the engine must not store or compare: forbidden keys at any depth, bad text in
 * keys or strings, nesting deeper than MAX_DEPTH. Iterative, so a hostile depth costs no stack.
 */
export function checkSafeValue(value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current === 'string') {
      if (isBadText(current)) throw new DocumentError('invalid-argument', SAFE_DATA_MESSAGES.badText('a value'));
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_DEPTH) throw new DocumentError('invalid-argument', SAFE_DATA_MESSAGES.tooDeep);
    if (Array.isArray(current)) {
      for (const item of current) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(current)) {
      checkKey(key);
      stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
}
