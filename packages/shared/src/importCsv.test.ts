/** The per-minute CSV's reading: RFC 4180 quotes before lines, headings with their units in every bracket, and each column judged. */
import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvDelimiterOf, csvReadColumns, parseCsv, readHeadings, splitHeading, timeZoneOfUnit } from './importCsv.ts';

describe('parseCsv', () => {
  it('handles quotes before lines: quoted line breaks, delimiters and doubled quotes stay in their field', () => {
    const text = '時刻,メモ,心拍数\r\n2026/11/20 22:00,"夜勤 ""A""\r\n巡回済み, 異常なし",60\n2026/11/20 22:01,,61\r';
    const table = parseCsv(text);
    expect(table.rows).toEqual([
      ['時刻', 'メモ', '心拍数'],
      ['2026/11/20 22:00', '夜勤 "A"\r\n巡回済み, 異常なし', '60'],
      ['2026/11/20 22:01', '', '61'],
    ]);
    // Each row's own first line, counting the line break inside the quotes.
    expect(table.lines).toEqual([1, 2, 4]);
  });

  it('skips blank lines, drops a BOM, keeps a quote inside an unquoted field, trims unquoted cells only', () => {
    const table = parseCsv('\uFEFFa,b\n\n  1 ,2"3\n" x ",4\n');
    expect(table.rows).toEqual([
      ['a', 'b'],
      ['1', '2"3'],
      [' x ', '4'],
    ]);
    expect(table.lines).toEqual([1, 3, 4]);
  });

  it('refuses a quote left open, naming the line it opened on', () => {
    expect(() => parseCsv('a,b\n1,"2\n3,4\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a,b\n1,"2\n3,4\n')).toThrow(/^Line 2: /);
  });

  it('finds the delimiter on the first line, outside quotes', () => {
    expect(csvDelimiterOf('a\tb\n1,2')).toBe('\t');
    expect(csvDelimiterOf('a;b\n')).toBe(';');
    expect(csvDelimiterOf('"a;b",c\n')).toBe(',');
    expect(parseCsv('時刻;心拍数\n2026-11-20 22:00;60').rows[1]).toEqual(['2026-11-20 22:00', '60']);
  });
});

describe('headings', () => {
  it('reads units in (), [], （）, ［］ and trailing unit names', () => {
    for (const heading of ['呼吸数(回/分)', '呼吸数[回/分]', '呼吸数（回／分）', '呼吸数［回/分］', '呼吸数 回/分', '呼吸数　（回/分）']) {
      expect(splitHeading(heading), heading).toEqual({ name: '呼吸数', unit: '回/分' });
    }
    expect(splitHeading('Heart rate [bpm]')).toEqual({ name: 'Heart rate', unit: 'bpm' });
    expect(splitHeading('heart rate bpm')).toEqual({ name: 'heart rate', unit: 'bpm' });
    expect(splitHeading('心拍数/分')).toEqual({ name: '心拍数', unit: '/分' });
    expect(splitHeading('体動')).toEqual({ name: '体動', unit: null });
  });

  it('matches each heading to its column and says why a column cannot be read', () => {
    const headings = readHeadings([
      '時刻',
      '呼吸数[回/分]',
      '心拍数［拍/分］',
      '体動',
      '呼吸停止回数',
      '部屋',
      '睡眠日',
      '体温(℃)',
      '呼吸数(回/時)',
      '心拍数(bpm)',
      '',
    ]);
    expect(headings.map(({ column, problem }) => [column, problem])).toEqual([
      ['time', null],
      ['respirationRate', null],
      ['heartRate', null],
      ['activity', null],
      ['pauses', null],
      ['room', null],
      ['sleepDay', null],
      [null, 'unknown'],
      ['respirationRate', 'unit'],
      ['heartRate', 'duplicate'],
      [null, 'empty'],
    ]);
  });

  it('a time column may name its zone', () => {
    expect(readHeadings(['時刻(JST)'])[0]?.problem).toBeNull();
    expect(timeZoneOfUnit('JST')).toBe('Asia/Tokyo');
    expect(timeZoneOfUnit('UTC')).toBe('UTC');
    expect(timeZoneOfUnit(null)).toBeNull();
    expect(readHeadings(['time (PST)'])[0]?.problem).toBe('unit');
  });

  it('lists every column: read, context, a problem until the user chooses to skip, an empty trailing column skipped', () => {
    const headings = readHeadings(['時刻', '心拍数', '部屋', 'メモ', '']);
    const counts = [3, 3, 3, 2, 0];
    expect(csvReadColumns(headings, counts, false).map((column) => [column.name, column.status, column.reason, column.values])).toEqual([
      ['時刻', 'read', null, 3],
      ['心拍数', 'read', null, 3],
      ['部屋', 'context', null, 3],
      ['メモ', 'problem', 'unknown', 2],
      ['', 'skipped', 'empty', 0],
    ]);
    expect(csvReadColumns(headings, counts, true)[3]).toMatchObject({ status: 'skipped', reason: 'unknown' });
  });
});
