/**
 * "What's new" after an update: the app remembers in the browser the version it last ran; when the
 * running version differs, the newest release note is shown once, until dismissed. A first visit
 * only remembers the version (there was no update to tell about).
 */
import { newestRelease, type ReleaseNote } from '../../lib/releaseNote.ts';

export const LAST_SEEN_VERSION_KEY = 'nemuri.lastSeenVersion';

export type ReleaseNoticeDecision<T> = { show: T | null; remember: string | null };

/**
 * What to do at start: the note to show (null: none) and the version to remember now (null: keep
 * what is stored, so that the note still shows after a reload until it is dismissed).
 */
export function releaseNoticeDecision<T extends ReleaseNote>(lastSeen: string | null, appVersion: string, notes: readonly T[]): ReleaseNoticeDecision<T> {
  if (lastSeen === null) return { show: null, remember: appVersion };
  if (lastSeen === appVersion) return { show: null, remember: null };
  const newest = newestRelease(notes);
  // No note to tell about: nothing to dismiss either, so the update counts as seen.
  return newest === null ? { show: null, remember: appVersion } : { show: newest, remember: null };
}
