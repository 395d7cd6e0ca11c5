/**
 * The domain configuration forms: their values, the record fields they become, and validation.
 * Validation runs the registry's own `domains` schema (the one the server enforces, packages/
 * shared/src/documents/collections.ts) and then the narrower rules the screen adds from shared
 * tables: the alert numbers' allowed ranges (packages/shared/src/domainNumbers.ts) and the
 * `HH:MM` night window. Problems are rules with numbers; the screen words them in Japanese next to
 * each field.
 */
import type { ZodIssue } from 'zod/v3';
import { SCHEMAS } from '@nemuri/shared/documents/collections';
import { MESSAGES } from '@nemuri/shared/documents/errors';
import { ALERT_NUMBER_SPECS, TIME_OF_DAY_PATTERN, type AlertNumberKey } from '@nemuri/shared/domainNumbers';
import type { Data } from '@nemuri/shared/documents/update';
import type { RecordOf } from '../../lib/documents/records.ts';

export type Domain = RecordOf<'domains'>;

export type ValidationRule = 'required' | 'number' | 'integer' | 'min' | 'max' | 'range' | 'tooShort' | 'email' | 'time' | 'postalCode' | 'phone' | 'invalid';

export interface FieldProblem {
  rule: ValidationRule;
  params: Record<string, number | string>;
}

/** Problems by form field (the last segment of the record path: `location.latitude` → `latitude`). */
export type FieldProblems = Partial<Record<string, FieldProblem>>;

export type Validation = { ok: true; fields: Data } | { ok: false; problems: FieldProblems };

/** Number inputs hold '' while empty (Mantine's NumberInput gives a string then). */
type NumberValue = number | string;

export interface BasicValues {
  name: string;
  nameKana: string;
  postalCode: string;
  prefecture: string;
  city: string;
  line: string;
  phone: string;
  latitude: NumberValue;
  longitude: NumberValue;
}

export interface DatesValues {
  sleepDayBoundaryHour: NumberValue;
  nightStart: string;
  nightEnd: string;
  reportClosingDay: NumberValue;
}

export type NumbersValues = Record<AlertNumberKey, NumberValue>;

/** Japanese postal codes: 123-4567 (the hyphen optional). */
const POSTAL_CODE = /^\d{3}-?\d{4}$/;
/** Domestic or international telephone numbers with optional hyphens. */
const PHONE = /^\+?[0-9][0-9-]{8,15}$/;

function text(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function numberOf(value: NumberValue): number | null {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  // A non-number stays NaN, which the schema refuses ("Expected number, received nan").
  return trimmed === '' ? null : Number(trimmed);
}

function numberInput(value: number | null | undefined): NumberValue {
  return typeof value === 'number' ? value : '';
}

export function basicValuesOf(domain: Domain | null): BasicValues {
  return {
    name: domain?.name ?? '',
    nameKana: domain?.nameKana ?? '',
    postalCode: domain?.address?.postalCode ?? '',
    prefecture: domain?.address?.prefecture ?? '',
    city: domain?.address?.city ?? '',
    line: domain?.address?.line ?? '',
    phone: domain?.phone ?? '',
    latitude: numberInput(domain?.location?.latitude),
    longitude: numberInput(domain?.location?.longitude),
  };
}

export function datesValuesOf(domain: Domain | null): DatesValues {
  return {
    sleepDayBoundaryHour: numberInput(domain?.dates?.sleepDayBoundaryHour),
    nightStart: domain?.dates?.nightStart ?? '',
    nightEnd: domain?.dates?.nightEnd ?? '',
    reportClosingDay: numberInput(domain?.dates?.reportClosingDay),
  };
}

export function numbersValuesOf(domain: Domain | null): NumbersValues {
  const stored = domain?.numbers ?? {};
  return Object.fromEntries(ALERT_NUMBER_SPECS.map((spec) => [spec.key, numberInput(stored[spec.key])])) as NumbersValues;
}

function fieldOf(path: readonly (string | number)[]): string {
  const last = path.length > 1 ? path[1] : path[0];
  return typeof last === 'string' ? last : 'form';
}

function limit(value: unknown): number {
  return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : NaN;
}

/** The rule a zod issue (the browser's own check, so with its code) broke. */
export function problemOf(issue: ZodIssue): FieldProblem {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined' || issue.received === 'null') return { rule: 'required', params: {} };
      // A fraction where a whole number belongs is "Expected integer, received float".
      if (issue.expected === 'integer') return { rule: 'integer', params: {} };
      return issue.expected === 'number' ? { rule: 'number', params: {} } : { rule: 'invalid', params: {} };
    case 'too_small':
      if (issue.type === 'string')
        return limit(issue.minimum) <= 1 ? { rule: 'required', params: {} } : { rule: 'tooShort', params: { minimum: limit(issue.minimum) } };
      return { rule: 'min', params: { minimum: limit(issue.minimum) } };
    case 'too_big':
      return { rule: 'max', params: { maximum: limit(issue.maximum) } };
    case 'invalid_string':
      return issue.validation === 'email' ? { rule: 'email', params: {} } : { rule: 'invalid', params: {} };
    case 'custom':
      if (issue.message === MESSAGES.latitude) return { rule: 'range', params: { minimum: -90, maximum: 90, unit: '' } };
      if (issue.message === MESSAGES.longitude) return { rule: 'range', params: { minimum: -180, maximum: 180, unit: '' } };
      return { rule: 'invalid', params: {} };
    default:
      return { rule: 'invalid', params: {} };
  }
}

/** The first problem per field of the registry's `domains` schema for these fields. */
function schemaProblems(fields: Data): FieldProblems {
  const problems: FieldProblems = {};
  const result = SCHEMAS.domains.partial().safeParse(fields);
  if (result.success) return problems;
  for (const issue of result.error.issues) problems[fieldOf(issue.path)] ??= problemOf(issue);
  return problems;
}

function outcome(fields: Data, problems: FieldProblems): Validation {
  return Object.keys(problems).length === 0 ? { ok: true, fields } : { ok: false, problems };
}

/** Basic information: name, kana, address, phone, and the location as a GeoPoint. */
export function validateBasic(values: BasicValues): Validation {
  const latitude = numberOf(values.latitude);
  const longitude = numberOf(values.longitude);
  const fields: Data = {
    name: values.name.trim(),
    nameKana: text(values.nameKana),
    address: { postalCode: text(values.postalCode), prefecture: text(values.prefecture), city: text(values.city), line: text(values.line) },
    phone: text(values.phone),
    // Both or neither: a point needs its two coordinates.
    location: latitude === null && longitude === null ? null : { latitude, longitude },
  };
  const problems = schemaProblems(fields);
  const postalCode = text(values.postalCode);
  if (postalCode !== null && !POSTAL_CODE.test(postalCode)) problems.postalCode ??= { rule: 'postalCode', params: {} };
  const phone = text(values.phone);
  if (phone !== null && !PHONE.test(phone)) problems.phone ??= { rule: 'phone', params: {} };
  return outcome(fields, problems);
}

/** Dates: the sleep-day boundary, the night window and the report closing day. */
export function validateDates(values: DatesValues): Validation {
  const dates: Data = {
    sleepDayBoundaryHour: numberOf(values.sleepDayBoundaryHour) ?? undefined,
    nightStart: text(values.nightStart),
    nightEnd: text(values.nightEnd),
    reportClosingDay: numberOf(values.reportClosingDay) ?? undefined,
  };
  const problems = schemaProblems({ dates: Object.fromEntries(Object.entries(dates).filter(([, value]) => value !== undefined)) });
  for (const key of ['nightStart', 'nightEnd'] as const) {
    const value = dates[key];
    if (typeof value === 'string' && !TIME_OF_DAY_PATTERN.test(value)) problems[key] ??= { rule: 'time', params: {} };
  }
  return outcome({ dates }, problems);
}

/** Numbers: every alert threshold within its allowed range; an empty one uses the default. */
export function validateNumbers(values: NumbersValues): Validation {
  const numbers: Data = {};
  for (const spec of ALERT_NUMBER_SPECS) numbers[spec.key] = numberOf(values[spec.key]) ?? undefined;
  const problems = schemaProblems({ numbers: Object.fromEntries(Object.entries(numbers).filter(([, value]) => value !== undefined)) });
  for (const spec of ALERT_NUMBER_SPECS) {
    const value = numbers[spec.key];
    if (typeof value !== 'number' || Number.isNaN(value)) continue;
    if (value < spec.min || value > spec.max) problems[spec.key] ??= { rule: 'range', params: { minimum: spec.min, maximum: spec.max, unit: spec.unit } };
  }
  return outcome({ numbers }, problems);
}
