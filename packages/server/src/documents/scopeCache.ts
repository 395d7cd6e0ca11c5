/**
 * The looked-up part of a caller's data scope (an agency's partners, a level-1 user's rooms), kept for
 * a moment per caller (one cache per document store): every read of such a caller needed a query for it before its own.
 * Any change to rooms, report links or partners — made by this process or, on PostgreSQL, announced by
 * another — clears it at once; otherwise an entry lives `TTL_MS`, which also bounds how long a report
 * link that expires by the clock keeps working.
 */
import type { Claims, ScopeFacts } from '@nemuri/shared/documents/access';
import type { ChangeFeed } from './changeFeed.ts';

const TTL_MS = 2000;
const MAX_ENTRIES = 10_000;
/** Collection groups whose records decide a scope. */
const DECIDING = new Set(['rooms', 'reportAccess', 'partners']);

export class ScopeCache {
  readonly #entries = new Map<string, { facts: ScopeFacts; atMs: number }>();

  constructor(feed: Pick<ChangeFeed, 'subscribe'>) {
    feed.subscribe((batch) => {
      if ('everything' in batch || batch.changes.some((change) => DECIDING.has(change.collectionGroup))) this.#entries.clear();
    });
  }

  get(claims: Claims, nowMs = Date.now()): ScopeFacts | undefined {
    const entry = this.#entries.get(keyOf(claims));
    return entry !== undefined && nowMs - entry.atMs < TTL_MS ? entry.facts : undefined;
  }

  set(claims: Claims, facts: ScopeFacts, nowMs = Date.now()): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(keyOf(claims), { facts, atMs: nowMs });
  }
}

const keyOf = (claims: Claims): string => `${claims.uid}\u0000${claims.accessLevel}\u0000${claims.domainId ?? ''}`;
