/**
 * The audit log screen's filters as they live in its address (`?domain=…&who=…&collection=…&
 * operation=…&from=YYYY-MM-DD&to=YYYY-MM-DD`) and as the API takes them (days as Japan-time instants).
 */
import { AUDIT_CSV_MAX_DAYS, AUDIT_OPERATIONS, AUDITED_COLLECTIONS, type AuditLogFilter, type AuditOperation } from '@nemuri/shared/auditLog';

export interface AuditScreenFilter {
  domainId: string | null;
  who: string | null;
  collection: string | null;
  operation: AuditOperation | null;
  /** `YYYY-MM-DD` (Japan calendar) or null; `to` is included. */
  from: string | null;
  to: string | null;
}

const DAY = /^\d{4}-\d\d-\d\d$/;
const DAY_MS = 86_400_000;

function dayOrNull(value: string | null): string | null {
  return value !== null && DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null;
}

export function filterFromParams(params: URLSearchParams): AuditScreenFilter {
  const operation = params.get('operation');
  const collection = params.get('collection');
  return {
    domainId: params.get('domain') || null,
    who: params.get('who') || null,
    collection: collection !== null && AUDITED_COLLECTIONS.includes(collection) ? collection : null,
    operation: operation !== null && (AUDIT_OPERATIONS as readonly string[]).includes(operation) ? (operation as AuditOperation) : null,
    from: dayOrNull(params.get('from')),
    to: dayOrNull(params.get('to')),
  };
}

export function paramsOfFilter(filter: AuditScreenFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.domainId !== null) params.domain = filter.domainId;
  if (filter.who !== null) params.who = filter.who;
  if (filter.collection !== null) params.collection = filter.collection;
  if (filter.operation !== null) params.operation = filter.operation;
  if (filter.from !== null) params.from = filter.from;
  if (filter.to !== null) params.to = filter.to;
  return params;
}

/** The start of a Japan calendar day as an instant. */
function japanDayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 9 * 3_600_000).toISOString();
}

export function periodIsValid(filter: AuditScreenFilter): boolean {
  return filter.from === null || filter.to === null || filter.from <= filter.to;
}

/** What the API takes: `from` at the start of its day, `to` at the end of its day (the start of the next). */
export function apiFilterOf(filter: AuditScreenFilter): AuditLogFilter {
  const api: AuditLogFilter = {};
  if (filter.domainId !== null) api.domainId = filter.domainId;
  if (filter.who !== null) api.who = filter.who;
  if (filter.collection !== null) api.collection = filter.collection;
  if (filter.operation !== null) api.operation = filter.operation;
  if (filter.from !== null) api.from = japanDayStart(filter.from);
  if (filter.to !== null) api.to = new Date(Date.parse(japanDayStart(filter.to)) + DAY_MS).toISOString();
  return api;
}

/** Whether a CSV may be made: both days set, in order, at most AUDIT_CSV_MAX_DAYS apart. */
export function csvAllowed(filter: AuditScreenFilter): boolean {
  if (filter.from === null || filter.to === null || filter.from > filter.to) return false;
  return (Date.parse(`${filter.to}T00:00:00Z`) - Date.parse(`${filter.from}T00:00:00Z`)) / DAY_MS + 1 <= AUDIT_CSV_MAX_DAYS;
}
