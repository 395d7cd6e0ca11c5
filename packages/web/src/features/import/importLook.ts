/** How imports read on screen: sizes, durations and the colour of each upload status. */
import type { RecordOf } from '../../lib/documents/records.ts';

export type UploadRecord = RecordOf<'rooms/uploads'>;
export type UploadStatus = UploadRecord['status'];

export const STATUS_COLORS: Readonly<Record<UploadStatus, string>> = {
  queued: 'gray',
  parsing: 'blue',
  analyzing: 'blue',
  done: 'teal',
  failed: 'red',
};

export const STATUS_RUNNING: ReadonlySet<UploadStatus> = new Set(['queued', 'parsing', 'analyzing']);

/** Bytes as people read them: 512 B, 1.4 KB, 83.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}
