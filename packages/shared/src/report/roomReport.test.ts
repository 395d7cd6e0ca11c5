/** The report numbers: rows, period averages (clock times across midnight), diary bars and pauses. */
import { describe, expect, it } from 'vitest';
import { cellText, dayCsvRows } from './columns.ts';
import { toCsv } from './csv.ts';
import { isReportDay, periodAround, reportQuery } from './period.ts';
import { buildRoomReport, type SleepRecord } from './roomReport.ts';
import { DEFAULT_REPORT_DAY_RULE as RULE } from './sleepDayClock.ts';

const room = { id: 'r1', name: '101号室', reportComment: '良好' };

describe('room reports', () => {
  it('averages the days with a value, clock times across midnight included', () => {
    const sleeps = new Map<string, SleepRecord>([
      [
        '2026-11-01',
        { source: 't', bedTime: '2026-11-01T23:30:00+09:00', totalSleepMin: 400, sleepEfficiency: 80, respirationRate: { avg: 14, min: 10, max: 18 } },
      ],
      ['2026-11-03', { source: 't', bedTime: '2026-11-04T00:30:00+09:00', totalSleepMin: 421, sleepEfficiency: 85.5 }],
    ]);
    const report = buildRoomReport(room, sleeps, '2026-11-01', '2026-11-03', RULE);
    expect(report.rows.map((row) => row.recorded)).toEqual([true, false, true]);
    expect(report.averages.days).toBe(2);
    expect(report.averages.numbers.totalSleepMin).toBe(410.5);
    expect(report.averages.numbers.sleepEfficiency).toBe(82.8);
    expect(report.averages.numbers.respirationAvg).toBe(14);
    expect(report.averages.clocks.bedTime?.clock).toBe('00:00');
    expect(cellText(report.rows[0] ?? report.averages, 'bedTime')).toBe('23:30');
    expect(report.room.comment).toBe('良好');
  });

  it('draws the diary from the epochs, with breathing pauses, or from the times without them', () => {
    const epochs: NonNullable<SleepRecord['epochs']> = [
      { state: 'awake' },
      { state: 'light', pauses: 2 },
      { state: 'deep' },
      { state: 'unknown' },
      { state: 'outOfBed' },
    ];
    const sleeps = new Map<string, SleepRecord>([
      ['2026-11-01', { source: 't', epochStart: '2026-11-01T22:00:00+09:00', epochs }],
      [
        '2026-11-02',
        {
          source: 't',
          bedTime: '2026-11-02T21:00:00+09:00',
          sleepOnset: '2026-11-02T21:30:00+09:00',
          finalWake: '2026-11-03T06:00:00+09:00',
          outOfBedTime: '2026-11-03T06:10:00+09:00',
        },
      ],
    ]);
    const [first, second] = buildRoomReport(room, sleeps, '2026-11-01', '2026-11-02', RULE).diary;
    // 22:00 is 600 minutes after the 12:00 boundary.
    expect(first?.segments).toEqual([
      { kind: 'inBedAwake', startMin: 600, endMin: 601 },
      { kind: 'asleep', startMin: 601, endMin: 603 },
      { kind: 'outOfBed', startMin: 604, endMin: 605 },
    ]);
    expect(first?.pauses).toEqual([{ minute: 601, count: 2 }]);
    expect(second?.segments).toEqual([
      { kind: 'inBedAwake', startMin: 540, endMin: 570 },
      { kind: 'asleep', startMin: 570, endMin: 1080 },
      { kind: 'inBedAwake', startMin: 1080, endMin: 1090 },
    ]);
  });

  it('writes CSV rows with Japanese headings and an average row', () => {
    const sleeps = new Map<string, SleepRecord>([['2026-11-01', { source: 't', totalSleepMin: 400 }]]);
    const rows = dayCsvRows([buildRoomReport({ id: 'r', name: 'A, "B"' }, sleeps, '2026-11-01', '2026-11-01', RULE)], ['totalSleepMin']);
    expect(toCsv(rows)).toBe('部屋,日付,総睡眠時間(分)\r\n"A, ""B""",2026/11/01,400\r\n"A, ""B""",期間平均,400\r\n');
  });

  it('knows the periods and validates queries', () => {
    expect(periodAround('week', '2026-11-19')).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(periodAround('month', '2026-02-10')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(reportQuery.safeParse({ rooms: 'a,b,a', from: '2026-01-01', to: '2026-01-31' })).toMatchObject({ success: true, data: { rooms: ['a', 'b'] } });
    expect(reportQuery.safeParse({ rooms: 'a', from: '2026-01-01', to: '2027-01-31' }).success).toBe(false);
    expect(reportQuery.safeParse({ rooms: 'a', from: '2026-02-30', to: '2026-03-01' }).success).toBe(false);
    expect(reportQuery.safeParse({ rooms: '', from: '2026-01-01', to: '2026-01-01' }).success).toBe(false);
  });
});

describe('report days', () => {
  it('are real calendar days', () => {
    expect(['2026-11-01', '2028-02-29'].map(isReportDay)).toEqual([true, true]);
    expect(['2026-13-01', '2026-02-30', '2027-02-29', '2026-1-01', ''].map(isReportDay)).toEqual([false, false, false, false, false]);
  });
});
