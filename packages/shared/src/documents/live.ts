/**
 * Live subscriptions on the wire (`GET /api/live`, a WebSocket; docs/api.md "Live
 * subscriptions"): JSON messages, one per frame. The client subscribes to a record, a query or a
 * count under an id of its choosing; the server answers a snapshot at once and again whenever the
 * result changes, or an error, after which the subscription is gone.
 */
import type { DocumentErrorCode } from './errors.ts';
import type { Query } from './query.ts';
import type { Data } from './update.ts';

export const LIVE_PATH = '/api/live';

/** Most subscriptions one socket may hold. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 500;

export type SubscriptionId = string | number;

export type LiveTarget = { document: string } | { query: Query } | { count: Query };

export type ClientMessage = { type: 'subscribe'; id: SubscriptionId; target: LiveTarget } | { type: 'unsubscribe'; id: SubscriptionId };

export type Snapshot = { document: Data | null } | { documents: Data[] } | { count: number };

export type ServerMessage =
  ({ type: 'snapshot'; id: SubscriptionId } & Snapshot) | { type: 'error'; id: SubscriptionId | null; code: DocumentErrorCode; message: string };
