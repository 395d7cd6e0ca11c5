/**
 * The report addresses the page builds carry only the keys the server's strict queries allow
 * (shared report/period.ts and report/reportApi.ts): an extra key would be a 400 at download time.
 */
import { reportQuery } from '@nemuri/shared/report/period';
import { CSV_ENCODINGS, CSV_KINDS, reportCsvQuery } from '@nemuri/shared/report/reportApi';
import { describe, expect, it } from 'vitest';
import { csvUrl, pdfUrl } from './reportApi.ts';

const selection = { roomIds: ['room-a', 'room b'], from: '2026-11-01', to: '2026-11-30' };

function queryOf(url: string): Record<string, string> {
  const params = new URL(url, 'http://localhost').searchParams;
  // A repeated key would reach the server as an array, which the schemas refuse.
  expect(new Set(params.keys()).size).toBe([...params.keys()].length);
  return Object.fromEntries(params);
}

describe('report addresses', () => {
  it('the PDF address passes the strict report query', () => {
    expect(reportQuery.safeParse(queryOf(pdfUrl(selection))).success).toBe(true);
  });

  it('every CSV address passes the strict CSV query', () => {
    for (const kind of CSV_KINDS)
      for (const encoding of CSV_ENCODINGS) {
        const parsed = reportCsvQuery.safeParse(queryOf(csvUrl(selection, kind, encoding)));
        expect(parsed.success, `${kind} ${encoding}`).toBe(true);
        expect(parsed.data).toMatchObject({ rooms: ['room-a', 'room b'], kind, encoding });
      }
  });

  it('the strict CSV query names an extra key', () => {
    const parsed = reportCsvQuery.safeParse({ ...queryOf(csvUrl(selection, 'days', 'sjis')), format: 'xlsx' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('format');
  });
});
