/**
 * Acknowledging an alert for a caller (the push notification's 確認, an integration's key), through
 * the document engine: its `acknowledgement` rule (shared documents/collections.ts) records the
 * caller's uid and the server's time, and only the alert's own staff may. Acknowledging again, or
 * after a colleague, answers the acknowledgement recorded first: it is never rewritten.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentStore } from '../documents/store.ts';

export interface Acknowledgement {
  acknowledgedBy: string;
  acknowledgedAt: string;
}

function recorded(alert: Data | null | undefined): Acknowledgement | null {
  const by = alert?.acknowledgedBy;
  const at = alert?.acknowledgedAt;
  return typeof by === 'string' && by !== '' && typeof at === 'string' && at !== '' ? { acknowledgedBy: by, acknowledgedAt: at } : null;
}

/** Throws the engine's refusals (not-found, permission-denied) as they are: the routes answer them their own way. */
export async function acknowledgeAlert(store: DocumentStore, claims: Claims, alertId: string): Promise<Acknowledgement> {
  const path = `alerts/${alertId}`;
  const before = recorded((await store.get(claims, path))?.document);
  if (before !== null) return before;
  try {
    const after = recorded(await store.update(claims, path, { acknowledgedBy: claims.uid }));
    if (after !== null) return after;
  } catch (error) {
    // A colleague acknowledged it in between: theirs stands.
    if (!(error instanceof DocumentError && error.code === 'failed-precondition')) throw error;
  }
  const now = recorded((await store.get(claims, path))?.document);
  if (now === null) throw new DocumentError('not-found', `No alert ${alertId}`);
  return now;
}
