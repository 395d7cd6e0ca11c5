/**
 * The parameter form (/master/paramater-lists): what the developer types, as text, becomes a
 * `parameters` record only when its value matches its type and lies within its min and max. The
 * registry's schema cannot say that (it allows any value type), so this check is the product's rule
 * for a parameter; the schema is checked after it, as the server will.
 */
import { SCHEMAS } from '@nemuri/shared/documents/collections';
import type { FieldsOf, RecordOf } from '../../lib/documents/records.ts';

export const PARAMETER_TYPES = ['number', 'string', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export type ParameterFields = FieldsOf<'parameters'>;
export type ParameterRecord = RecordOf<'parameters'>;

/** The form's values, as typed. */
export interface ParameterDraft {
  key: string;
  deviceTypeId: string;
  type: ParameterType;
  value: string;
  min: string;
  max: string;
  unit: string;
  description: string;
}

export type ParameterField = keyof ParameterDraft;

/** What is wrong with one field; the screen words it (`master.problems.*`). */
export type ParameterProblem =
  'required' | 'keyFormat' | 'notNumber' | 'notBoolean' | 'belowMin' | 'aboveMax' | 'minAboveMax' | 'rangeOnlyForNumber' | 'invalid';

export type ParameterProblems = Partial<Record<ParameterField | 'form', ParameterProblem>>;

/** Keys are record ids too (`parameters/{key}`): letters, digits, `_`, `-`, `.`. */
const KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

export const EMPTY_PARAMETER: ParameterDraft = { key: '', deviceTypeId: '', type: 'number', value: '', min: '', max: '', unit: '', description: '' };

const textOf = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The form's values for a stored record (or an empty form). */
export function parameterDraftOf(record: ParameterFields | null): ParameterDraft {
  if (record === null) return EMPTY_PARAMETER;
  return {
    key: record.key,
    deviceTypeId: textOf(record.deviceTypeId),
    type: record.type,
    value: textOf(record.value),
    min: textOf(record.min),
    max: textOf(record.max),
    unit: textOf(record.unit),
    description: textOf(record.description),
  };
}

/** A number typed in a form; null when empty, NaN when not a number. */
function numberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : Number.NaN;
}

/**
 * Whether a value fits its parameter's type and range; null when it does. Also used on stored
 * records, so that the list marks a parameter written wrongly before these checks existed.
 */
export function parameterValueProblem(value: unknown, type: ParameterType, min?: number | null, max?: number | null): ParameterProblem | null {
  switch (type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'notNumber';
      if (typeof min === 'number' && value < min) return 'belowMin';
      if (typeof max === 'number' && value > max) return 'aboveMax';
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'notBoolean';
    case 'string':
      return typeof value === 'string' && value !== '' ? null : 'required';
  }
}

function typedValue(draft: ParameterDraft): number | string | boolean {
  if (draft.type === 'number') return numberOf(draft.value) ?? Number.NaN;
  if (draft.type === 'boolean') return draft.value === 'true' ? true : draft.value === 'false' ? false : draft.value;
  return draft.value.trim();
}

export type ParameterCheck = { ok: true; fields: ParameterFields } | { ok: false; problems: ParameterProblems };

/** Checks the form; on success gives the record's fields (empty optional fields left out). */
export function checkParameter(draft: ParameterDraft): ParameterCheck {
  const problems: ParameterProblems = {};
  const key = draft.key.trim();
  if (key === '') problems.key = 'required';
  else if (!KEY_PATTERN.test(key)) problems.key = 'keyFormat';

  const min = numberOf(draft.min);
  const max = numberOf(draft.max);
  if (draft.type === 'number') {
    if (Number.isNaN(min)) problems.min = 'notNumber';
    if (Number.isNaN(max)) problems.max = 'notNumber';
    if (min !== null && max !== null && !Number.isNaN(min) && !Number.isNaN(max) && min > max) problems.max = 'minAboveMax';
  } else {
    // A range on a text or yes/no value would mean nothing; refuse it rather than store it silently.
    if (min !== null) problems.min = 'rangeOnlyForNumber';
    if (max !== null) problems.max = 'rangeOnlyForNumber';
  }

  const value = typedValue(draft);
  if (draft.type === 'number' && draft.value.trim() === '') problems.value = 'required';
  else {
    const rangeOk = problems.min === undefined && problems.max === undefined;
    const valueProblem = parameterValueProblem(value, draft.type, rangeOk ? min : null, rangeOk ? max : null);
    if (valueProblem !== null) problems.value = valueProblem;
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };

  const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const fields: ParameterFields = {
    key,
    value,
    type: draft.type,
    ...(optional(draft.deviceTypeId) === undefined ? {} : { deviceTypeId: optional(draft.deviceTypeId) }),
    ...(min === null ? {} : { min }),
    ...(max === null ? {} : { max }),
    ...(optional(draft.unit) === undefined ? {} : { unit: optional(draft.unit) }),
    ...(optional(draft.description) === undefined ? {} : { description: optional(draft.description) }),
  };
  const parsed = SCHEMAS.parameters.safeParse(fields);
  if (!parsed.success) {
    const head = parsed.error.issues[0]?.path[0];
    const field = typeof head === 'string' && head in EMPTY_PARAMETER ? (head as ParameterField) : 'form';
    return { ok: false, problems: { [field]: 'invalid' } };
  }
  return { ok: true, fields };
}

/** The value as a person reads it (`true` → はい is the screen's job; numbers with their unit). */
export function parameterValueText(record: Pick<ParameterFields, 'value' | 'unit'>): string {
  return record.unit ? `${String(record.value)} ${record.unit}` : String(record.value);
}
