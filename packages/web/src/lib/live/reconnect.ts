/**
 * The one reconnection policy of every live socket of the page (documents, device signals, room
 * states): after a lost connection try again soon, doubling the wait per failure up to a cap of
 * under two seconds, each wait shortened by a random share (jitter) so that the pages of a ward do
 * not all come back in the same instant; back to the first wait once a socket opens. So a page is
 * back within 2 s of the server (issue 25: the station lagged 20 s behind a restarted server when
 * the waits grew to 30 s). A refusal by policy (too many sockets, POLICY_CLOSE_CODE) does not lift
 * in a moment: that one waits long.
 */

export interface ReconnectPolicy {
  /** The first wait (ms). */
  firstMs: number;
  /** The longest wait after failures (ms), before jitter. */
  maxMs: number;
  /** The wait after the server refused the socket by policy (ms). */
  refusedMs: number;
  /** Share of each wait taken off at random: a wait is between (1 - jitter) and 1 times its base. */
  jitter: number;
}

export const LIVE_RECONNECT: ReconnectPolicy = { firstMs: 250, maxMs: 1600, refusedMs: 30_000, jitter: 0.4 };

/** The waits of one socket: `next()` after each failure, `succeeded()` once it opens. */
export class Backoff {
  readonly policy: ReconnectPolicy;
  readonly #random: () => number;
  #failures = 0;
  #refused = false;

  constructor(policy: Partial<ReconnectPolicy> = {}, random: () => number = Math.random) {
    this.policy = { ...LIVE_RECONNECT, ...policy };
    this.#random = random;
  }

  /** The wait before the next attempt (ms); counts a failure. */
  next(): number {
    const { firstMs, maxMs, refusedMs, jitter } = this.policy;
    const base = this.#refused ? refusedMs : Math.min(firstMs * 2 ** this.#failures, maxMs);
    this.#refused = false;
    this.#failures++;
    return Math.round(base * (1 - jitter * this.#random()));
  }

  /** The socket opened (or was closed on purpose to reopen at once): the next wait is the first. */
  succeeded(): void {
    this.#failures = 0;
    this.#refused = false;
  }

  /** The server refused the socket by policy: the next wait is the long one. */
  refused(): void {
    this.#refused = true;
  }
}
