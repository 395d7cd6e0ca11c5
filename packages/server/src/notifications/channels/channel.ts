/** What every channel does with a claimed notification, and how it answers. */
import type { ClaimedNotification } from '../deliveryQueue.ts';

export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  statusCode: number | null;
  error: string | null;
  /** Worth trying again later (a timeout, 429, 5xx); false: it will not work (gone, refused, not configured). */
  retry: boolean;
}

export interface Channel {
  send(notification: ClaimedNotification): Promise<SendResult>;
  /**
   * Many notifications of the channel at once, at most `concurrency` requests in flight; each
   * result by queue id, with how long its request took. Optional: a channel whose per-row work
   * around the request (reads, writes) costs more than the request itself does it here once for
   * the batch (Web Push: 1,000 staff told of one alert).
   */
  sendAll?(notifications: readonly ClaimedNotification[], concurrency: number): Promise<Map<number, TimedResult>>;
  /** Ends what the channel runs beside the requests (Web Push: its encryption workers); a later send starts it again. */
  close?(): Promise<void>;
}

export interface TimedResult extends SendResult {
  durationMs: number;
}

export const sent = (statusCode: number | null = null): SendResult => ({ ok: true, statusCode, error: null, retry: false });
export const refused = (error: string, statusCode: number | null = null): SendResult => ({ ok: false, statusCode, error, retry: false });
export const later = (error: string, statusCode: number | null = null): SendResult => ({ ok: false, statusCode, error, retry: true });

/** The receiver answered: 2xx sent; 408, 429 and 5xx worth another try; other codes refused. */
export function resultOfStatus(status: number, body: string): SendResult {
  if (status >= 200 && status < 300) return sent(status);
  const error = `HTTP ${status}${body === '' ? '' : `: ${body.slice(0, 200)}`}`;
  return status === 408 || status === 429 || status >= 500 ? later(error, status) : refused(error, status);
}

/** A request that failed before any answer (refused connection, timeout) is worth another try. */
export function resultOfError(error: unknown): SendResult {
  const message = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
  return later(message);
}

export const REQUEST_TIMEOUT_MS = 10_000;
