/**
 * Telling a lost connection from a failed statement, and running again a statement that may safely
 * run twice when its connection was lost: a pooled connection the server had already closed (a
 * backend terminated, PostgreSQL restarted) fails the next statement given to it before the pool
 * has noticed; the pool discards it, and the next attempt gets a fresh connection.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Errors that mean the connection itself failed, not the statement. */
export function isConnectionError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  // SQLSTATE class 08: connection exception; 57P01-57P03: the server is shutting down or the backend was terminated.
  return /^(08|57P0[123])/.test(code ?? '') || ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code ?? '') || /Connection terminated/i.test(error.message);
}

/**
 * Runs `statement` again (up to `attempts` times in all, a short pause between) while it fails for a
 * lost connection. Only for statements whose second run does no harm (an insert whose duplicate is
 * removed on read); any other failure is thrown at once.
 */
export async function againOnConnectionLoss<T>(statement: () => Promise<T>, attempts = 3, pauseMs = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= attempts || !isConnectionError(error)) throw error;
      await sleep(pauseMs * attempt);
    }
  }
}
