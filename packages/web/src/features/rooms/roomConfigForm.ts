/**
 * The room form's values, the record fields they become, and their validation. Validation runs the
 * registry's own `rooms` schema (the one the server enforces, packages/shared/src/documents/
 * collections.ts), so the browser refuses exactly what the server would; zod's English issues and
 * the server's `issues` both become rules that the screen words in Japanese next to each field.
 */
import type { ZodIssue } from 'zod/v3';
import { SCHEMAS } from '@nemuri/shared/documents/collections';
import type { DocumentIssue } from '@nemuri/shared/documents/errors';
import type { FieldsOf } from '../../lib/documents/records.ts';
import { alertSettingsFieldOf, type AlertSettingsValues } from './roomAlertSettingsForm.ts';

export type RoomFields = FieldsOf<'rooms'>;
export type RoomStatus = NonNullable<RoomFields['status']>;
export const ROOM_STATUSES: readonly RoomStatus[] = ['active', 'vacant', 'inactive'];

/** The fields the form edits; everything else a room holds (owners, viewers) is kept as stored. */
export const FORM_FIELDS = [
  'domainId',
  'name',
  'floor',
  'unit',
  'sortOrder',
  'residentName',
  'residentNote',
  'status',
  'deviceSerial',
  'alertSettings',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export interface RoomFormValues {
  domainId: string;
  name: string;
  floor: string;
  unit: string;
  /** '' while the input is empty (Mantine's NumberInput gives a string then). */
  sortOrder: number | string;
  residentName: string;
  residentNote: string;
  status: string;
  /** '' for no device. */
  deviceSerial: string;
  /** The room's own alert settings; absent: kept as stored. */
  alertSettings?: AlertSettingsValues;
}

export type ValidationRule = 'required' | 'number' | 'integer' | 'min' | 'max' | 'tooShort' | 'tooLong' | 'choice' | 'invalidType' | 'unknownField' | 'invalid';

export interface FieldProblem {
  rule: ValidationRule;
  /** Numbers the message names (a minimum, a maximum). */
  params: Record<string, number>;
}

/** Problems by form field; `form` holds those that name no field of the form. */
export type FieldProblems = Partial<Record<FormField | 'form', FieldProblem>>;

function text(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function numberOf(value: number | string): number | null {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  // A non-number typed in stays NaN, which the schema refuses ("Expected number, received nan").
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * The record fields of the form: text trimmed, an emptied optional field null (stored as null, so
 * an update clears it). The name is trimmed too: a name of spaces is an empty name.
 */
export function roomFieldsOf(values: RoomFormValues, rootDomainId: string | null): RoomFields {
  return {
    domainId: values.domainId,
    rootDomainId,
    name: values.name.trim(),
    floor: text(values.floor),
    unit: text(values.unit),
    sortOrder: numberOf(values.sortOrder),
    residentName: text(values.residentName),
    residentNote: text(values.residentNote),
    deviceSerial: text(values.deviceSerial),
    status: (text(values.status) ?? undefined) as RoomStatus | undefined,
    ...(values.alertSettings === undefined ? {} : { alertSettings: alertSettingsFieldOf(values.alertSettings) }),
  };
}

function isFormField(value: unknown): value is FormField {
  return typeof value === 'string' && (FORM_FIELDS as readonly string[]).includes(value);
}

type Issue = Pick<ZodIssue, 'path' | 'message'> & {
  code?: string;
  type?: string;
  received?: unknown;
  expected?: unknown;
  minimum?: unknown;
  maximum?: unknown;
};

function numberParam(value: unknown): number | undefined {
  return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
}

/** The rule a zod issue broke, read from its code; the server's issues carry only zod's message. */
function problemOf(issue: Issue): FieldProblem {
  const code = issue.code ?? codeOfMessage(issue.message);
  const minimum = numberParam(issue.minimum) ?? Number(/least (\d+)|equal to (\d+)/.exec(issue.message)?.slice(1).find(Boolean) ?? NaN);
  const maximum = numberParam(issue.maximum) ?? Number(/most (\d+)|equal to (\d+)/.exec(issue.message)?.slice(1).find(Boolean) ?? NaN);
  const isString = issue.type === 'string' || /^String/.test(issue.message);
  switch (code) {
    case 'too_small':
      if (isString) return minimum <= 1 ? { rule: 'required', params: {} } : { rule: 'tooShort', params: { minimum } };
      return { rule: 'min', params: { minimum } };
    case 'too_big':
      return isString ? { rule: 'tooLong', params: { maximum } } : { rule: 'max', params: { maximum } };
    case 'invalid_type': {
      const received = issue.received ?? /received (\w+)/.exec(issue.message)?.[1];
      const expected = issue.expected ?? /Expected (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined' || issue.message === 'Required') return { rule: 'required', params: {} };
      return expected === 'number' || expected === 'integer' ? { rule: 'number', params: {} } : { rule: 'invalidType', params: {} };
    }
    case 'invalid_enum_value':
      return { rule: 'choice', params: {} };
    case 'unrecognized_keys':
      return { rule: 'unknownField', params: {} };
    case 'not_integer':
      return { rule: 'integer', params: {} };
    default:
      return { rule: 'invalid', params: {} };
  }
}

function codeOfMessage(message: string): string {
  if (message === 'Required' || /^Expected .+, received /.test(message)) return 'invalid_type';
  if (/must contain at least|greater than/.test(message)) return 'too_small';
  if (/must contain at most|less than/.test(message)) return 'too_big';
  if (/^Invalid enum value/.test(message)) return 'invalid_enum_value';
  if (/^Unrecognized key/.test(message)) return 'unrecognized_keys';
  if (/Expected integer/.test(message)) return 'not_integer';
  return 'custom';
}

/** Field problems of zod issues (the browser's check) or of the server's `issues`; the first per field wins. */
export function problemsOf(issues: readonly (ZodIssue | DocumentIssue)[]): FieldProblems {
  const problems: FieldProblems = {};
  for (const issue of issues) {
    const head = issue.path[0];
    const field = isFormField(head) ? head : 'form';
    problems[field] ??= problemOf(issue);
  }
  return problems;
}

export type Validation = { ok: true; fields: RoomFields } | { ok: false; problems: FieldProblems };

/** Checks the fields against the registry's `rooms` schema, as the server will. */
export function validateRoom(fields: RoomFields): Validation {
  // Undefined keys are "absent" to the server (JSON drops them); drop them here as well.
  const candidate = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const result = SCHEMAS.rooms.safeParse(candidate);
  return result.success ? { ok: true, fields } : { ok: false, problems: problemsOf(result.error.issues) };
}
