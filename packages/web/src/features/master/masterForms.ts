/**
 * The other master forms: release notes (`histories`), raw views (`views`) and device types
 * (`deviceTypes`). Each turns the typed text into the record's fields or says per field what is
 * wrong (`master.problems.*`); the registry's schema is checked last, as the server will.
 */
import type { z } from 'zod/v3';
import { SCHEMAS } from '@nemuri/shared/documents/collections';
import type { FieldsOf } from '../../lib/documents/records.ts';

export type FormProblem = 'required' | 'idFormat' | 'versionFormat' | 'dateFormat' | 'notNumber' | 'channelsFormat' | 'invalid';
export type Problems<F extends string> = Partial<Record<F | 'form', FormProblem>>;
export type Checked<T, F extends string> = { ok: true; fields: T } | { ok: false; problems: Problems<F> };

/** Record ids typed by people (device type ids, view route keys): letters, digits, `_`, `-`, `.`. */
export const ID_PATTERN = /^[A-Za-z0-9_.-]+$/;

const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim());

/** Comma- or line-separated words, trimmed, empty ones dropped, each once. */
export function listOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,、]/)
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/** The schema's verdict: the first issue's field, or the whole form. */
function schemaCheck<T, F extends string>(schema: z.ZodTypeAny, fields: T, formFields: readonly F[]): Checked<T, F> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { ok: true, fields };
  const head = parsed.error.issues[0]?.path[0];
  const field = formFields.find((candidate) => candidate === head);
  return { ok: false, problems: { [field ?? 'form']: 'invalid' } as Problems<F> };
}

// ---- release notes -------------------------------------------------------------------------

export type ReleaseFields = FieldsOf<'histories'>;
export interface ReleaseDraft {
  version: string;
  date: string;
  title: string;
  body: string;
}
const RELEASE_FIELDS = ['version', 'date', 'title', 'body'] as const;

export function checkRelease(draft: ReleaseDraft): Checked<ReleaseFields, keyof ReleaseDraft> {
  const problems: Problems<keyof ReleaseDraft> = {};
  const version = draft.version.trim();
  const date = draft.date.trim();
  if (version === '') problems.version = 'required';
  else if (!/^\d+(\.\d+){0,3}$/.test(version)) problems.version = 'versionFormat';
  if (date === '') problems.date = 'required';
  else if (!/^\d{4}-\d\d-\d\d$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) problems.date = 'dateFormat';
  if (draft.title.trim() === '') problems.title = 'required';
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return schemaCheck(SCHEMAS.histories, { version, date, title: draft.title.trim(), body: draft.body.trim() }, RELEASE_FIELDS);
}

/** A release note's record id from its version, as in the demo data (`0.9.0` → `histories/v0-9-0`). */
export function releaseIdOf(version: string): string {
  return `v${version.trim().replaceAll('.', '-')}`;
}

// ---- raw views -------------------------------------------------------------------------------

export type ViewFields = FieldsOf<'views'>;
export interface ViewDraft {
  routeKey: string;
  name: string;
  deviceTypeIds: string[];
  channels: string;
}
const VIEW_FIELDS = ['routeKey', 'name', 'deviceTypeIds', 'channels'] as const;

export function checkView(draft: ViewDraft): Checked<Omit<ViewFields, 'layout'>, keyof ViewDraft> {
  const routeKey = draft.routeKey.trim();
  if (routeKey === '') return { ok: false, problems: { routeKey: 'required' } };
  if (!ID_PATTERN.test(routeKey)) return { ok: false, problems: { routeKey: 'idFormat' } };
  const name = optional(draft.name);
  return schemaCheck(
    SCHEMAS.views,
    { routeKey, ...(name === undefined ? {} : { name }), deviceTypeIds: [...new Set(draft.deviceTypeIds)], channels: listOf(draft.channels) },
    VIEW_FIELDS,
  );
}

// ---- device types ------------------------------------------------------------------------------

export type DeviceTypeFields = Omit<FieldsOf<'deviceTypes'>, 'calibration'>;
export type Channel = NonNullable<DeviceTypeFields['channels']>[number];
export interface DeviceTypeDraft {
  id: string;
  name: string;
  model: string;
  description: string;
  rawViews: string[];
  /** One channel a line: `key, sampleRateHz[, unit[, scale]]`. */
  channels: string;
}
const DEVICE_TYPE_FIELDS = ['id', 'name', 'model', 'description', 'rawViews', 'channels'] as const;

/** Channels as the form shows them, one a line. */
export function channelsText(channels: readonly Channel[] | undefined): string {
  return (channels ?? [])
    .map((channel) =>
      [channel.key, String(channel.sampleRateHz), channel.unit ?? '', channel.scale === null || channel.scale === undefined ? '' : String(channel.scale)]
        .join(', ')
        .replace(/(, )+$/, ''),
    )
    .join('\n');
}

/** Parses the channel lines; null when a line is not `key, rate[, unit[, scale]]` with numbers where they belong. */
export function parseChannels(text: string): Channel[] | null {
  const channels: Channel[] = [];
  for (const line of text
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [key = '', rate = '', unit = '', scale = ''] = line.split(',').map((part) => part.trim());
    const sampleRateHz = Number(rate);
    const scaleValue = scale === '' ? null : Number(scale);
    if (!ID_PATTERN.test(key) || rate === '' || !Number.isFinite(sampleRateHz) || sampleRateHz < 0 || (scaleValue !== null && !Number.isFinite(scaleValue)))
      return null;
    channels.push({ key, sampleRateHz, unit: unit === '' ? null : unit, scale: scaleValue });
  }
  return channels;
}

export function checkDeviceType(draft: DeviceTypeDraft): Checked<{ id: string; fields: DeviceTypeFields }, keyof DeviceTypeDraft> {
  const problems: Problems<keyof DeviceTypeDraft> = {};
  const id = draft.id.trim();
  if (id === '') problems.id = 'required';
  else if (!ID_PATTERN.test(id)) problems.id = 'idFormat';
  if (draft.name.trim() === '') problems.name = 'required';
  if (draft.model.trim() === '') problems.model = 'required';
  const channels = parseChannels(draft.channels);
  if (channels === null) problems.channels = 'channelsFormat';
  if (Object.keys(problems).length > 0 || channels === null) return { ok: false, problems };
  const description = optional(draft.description);
  const fields: DeviceTypeFields = {
    name: draft.name.trim(),
    model: draft.model.trim(),
    channels,
    rawViews: [...new Set(draft.rawViews)],
    ...(description === undefined ? {} : { description }),
  };
  const checked = schemaCheck(SCHEMAS.deviceTypes, fields, DEVICE_TYPE_FIELDS);
  return checked.ok ? { ok: true, fields: { id, fields } } : checked;
}
