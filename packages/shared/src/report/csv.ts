/**
 * The one CSV writer of the product (report downloads; anything else that writes CSV uses it too).
 *
 * A cell is text or a number. Text that a spreadsheet would read as a formula is neutralised as
 * the OWASP "CSV Injection" guidance says: a cell starting with `=`, `+`, `-`, `@`, tab or carriage
 * return gets a single quote in front, so Excel and LibreOffice show it as text and never evaluate
 * it (`=HYPERLINK(...)`, `@SUM(...)`, `-2+3`). The full-width forms `＝ ＋ － ＠` are treated alike,
 * since Japanese input methods produce them and some spreadsheet versions convert them to the
 * ASCII operators. Numbers are cells of type number, written as the report writes them: a negative
 * value starts with `-` and stays a number, because only text is ever neutralised — no string is
 * guessed to be a number. Fields with a comma, quote or line break are quoted (RFC 4180); lines end
 * in CRLF, as Excel writes them.
 */
import { formatNumber } from './columns.ts';

export type CsvCell = string | number | null;

/** First characters that make a spreadsheet evaluate a cell (OWASP), ASCII and full-width. */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/** The text of one cell as it goes between the commas. */
export function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? formatNumber(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
