/**
 * The lending endpoints (docs/api.md, "Device lending"): lend a device to a domain, take it back.
 * A refusal carries a `reason` (already lent, in repair, …) that the screen shows in Japanese.
 */
import type { TFunction } from 'i18next';
import type { RecordOf } from '../../../lib/documents/records.ts';
import { ApiError, reasonOrCode } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';

export type Device = RecordOf<'devices'>;
export type Borrow = RecordOf<'devices/borrows'>;

export interface LendInput {
  toDomainId: string;
  from: string;
  until: string | null;
  note: string | null;
}

/** A failure is the page's ApiError: the server's code and reason, and its (English) message. */
function post<T>(path: string, body: object): Promise<T> {
  return http.json<T>('POST', path, { body });
}

const base = (serial: string) => `/api/devices/${encodeURIComponent(serial)}/borrows`;

export function lendDevice(serial: string, input: LendInput): Promise<{ borrowId: string; device: Device | null; borrow: Borrow | null }> {
  return post(base(serial), {
    toDomainId: input.toDomainId,
    from: input.from,
    ...(input.until === null ? {} : { until: input.until }),
    ...(input.note === null ? {} : { note: input.note }),
  });
}

export function returnDevice(serial: string, borrowId: string): Promise<{ device: Device | null; borrow: Borrow | null }> {
  return post(`${base(serial)}/${encodeURIComponent(borrowId)}/return`, {});
}

const KNOWN_REASONS = [
  'already-lent',
  'already-returned',
  'device-retired',
  'device-in-repair',
  'device-not-found',
  'domain-not-found',
  'borrow-not-found',
  'invalid-period',
  'invalid-argument',
  'not-owner',
  'permission-denied',
  'conflict',
  'unauthenticated',
];

/** The server's refusal in Japanese (locale `deviceBorrow.errors`). */
export function borrowErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && KNOWN_REASONS.includes(reasonOrCode(error))) return t(`deviceBorrow.errors.${reasonOrCode(error)}`);
  return t('deviceBorrow.errors.unexpected');
}
