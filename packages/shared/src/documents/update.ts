/**
 * Writes on the wire. JSON has no `undefined`, so "remove this field" is the sentinel
 * `{"$delete": true}` (DELETE_FIELD); `null` is stored as null. A partial update names fields by
 * dot-separated paths (`"numbers.heartRateHigh": 120`) and touches only those.
 */
import { DocumentError, MESSAGES } from './errors.ts';
import { parseFieldPath } from './query.ts';
import { checkSafeValue } from './safeData.ts';

export const DELETE_FIELD = { $delete: true } as const;

export function isDeleteField(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    (value as Record<string, unknown>).$delete === true
  );
}

export type Data = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A new record object without a prototype: whatever key reaches it (checkSafeValue refuses the
 * dangerous ones first) stays an own property and never reaches `Object.prototype`.
 */
function emptyData(): Data {
  return Object.create(null) as Data;
}

/** Deep copy without the delete sentinels (for a set without merge). */
function withoutDeletes(data: Data): Data {
  const out = emptyData();
  for (const [key, value] of Object.entries(data)) {
    if (isDeleteField(value)) continue;
    out[key] = isPlainObject(value) ? withoutDeletes(value) : value;
  }
  return out;
}

/** Deep merge of `patch` into `base` (set with merge): objects merge, everything else replaces. */
function deepMerge(base: Data, patch: Data): Data {
  const out = Object.assign(emptyData(), base);
  for (const [key, value] of Object.entries(patch)) {
    if (isDeleteField(value)) delete out[key];
    else if (isPlainObject(value) && isPlainObject(out[key])) out[key] = deepMerge(out[key] as Data, value);
    else out[key] = isPlainObject(value) ? withoutDeletes(value) : value;
  }
  return out;
}

/** The record after a set: replaced, or merged into the existing one. */
export function applySet(existing: Data | null, data: unknown, merge: boolean): Data {
  if (!isPlainObject(data)) throw new DocumentError('invalid-argument', MESSAGES.invalidData('setDoc'));
  checkSafeValue(data);
  return merge && existing !== null ? deepMerge(existing, data) : withoutDeletes(data);
}

/** The record after a partial update of field paths. */
export function applyUpdate(existing: Data, fields: unknown): Data {
  if (!isPlainObject(fields)) throw new DocumentError('invalid-argument', MESSAGES.invalidData('updateDoc'));
  checkSafeValue(fields);
  const out = withoutDeletes(existing);
  for (const [path, value] of Object.entries(fields)) {
    const segments = parseFieldPath(path);
    let target: Data = out;
    for (const segment of segments.slice(0, -1)) {
      if (!isPlainObject(target[segment])) {
        if (isDeleteField(value)) {
          target = emptyData();
          break;
        }
        target[segment] = emptyData();
      }
      target = target[segment] as Data;
    }
    const last = segments[segments.length - 1] as string;
    if (isDeleteField(value)) delete target[last];
    else target[last] = isPlainObject(value) ? withoutDeletes(value) : value;
  }
  return out;
}

/** Top-level and nested keys whose values differ (dot paths), for the audit log. */
export function changedKeys(before: Data | null, after: Data | null, prefix = ''): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: string[] = [];
  for (const key of [...keys].sort()) {
    const a = before?.[key];
    const b = after?.[key];
    if (isPlainObject(a) && isPlainObject(b)) out.push(...changedKeys(a, b, `${prefix}${key}.`));
    else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${prefix}${key}`);
  }
  return out;
}
