/**
 * How the screen writes a report's days and cells: the cell texts are the shared ones (the PDF and
 * the CSV write the same), only the day label follows the interface language.
 */
import { dayLabelJa } from '@nemuri/shared/report/columns';

/** `11/2(月)` in Japanese, `11/2 (Mon)` in English. */
export function dayLabel(day: string, language: string): string {
  if (language.startsWith('ja')) return dayLabelJa(day);
  const date = new Date(`${day}T00:00:00Z`);
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()} (${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][date.getUTCDay()]})`;
}
