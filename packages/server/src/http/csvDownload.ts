/**
 * The one encoder of every CSV download (reports, alert history, audit log): UTF-8 with a byte
 * order mark or Windows-31J (Shift_JIS as Excel in Japan reads it). Excel in Japan opens either
 * correctly; plain UTF-8 it garbles. Windows-31J: JIS-mapping characters (〜 −…) take their
 * Windows-31J forms first (shared report/windows31j.ts); only characters it has no form of at all
 * (emoji, kanji outside JIS X 0208 and the IBM extensions) become `?`.
 */
import iconv from 'iconv-lite';
import type { CsvEncoding } from '@nemuri/shared/report/reportApi';
import { toWindows31jForms } from '@nemuri/shared/report/windows31j';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The bytes of the CSV text (without a BOM of its own) in the chosen encoding. */
export function encodeCsv(text: string, encoding: CsvEncoding): Buffer {
  // iconv-lite's Shift_JIS is Microsoft's cp932 table (NEC and IBM extensions included), i.e. Windows-31J.
  return encoding === 'sjis' ? iconv.encode(toWindows31jForms(text), 'cp932') : Buffer.concat([BOM, Buffer.from(text, 'utf8')]);
}

/** The Content-Type that names the encoding. */
export function csvContentType(encoding: CsvEncoding): string {
  return `text/csv; charset=${encoding === 'sjis' ? 'Shift_JIS' : 'utf-8'}`;
}
