import { describe, expect, it } from 'vitest';
import { alertCsvQuery, alertHistoryQuery } from './alertHistory.ts';
import { auditCsvQuery, auditLogQuery } from './auditLog.ts';

// The alert history and the audit log read their periods through the same rules (periodQuery.ts).
describe.each([
  ['alert history', alertHistoryQuery, alertCsvQuery, 93],
  ['audit log', auditLogQuery, auditCsvQuery, 93],
] as const)('%s period rules', (_name, listQuery, csvQuery, maxDays) => {
  it('normalises instants with an offset to the stored form and refuses other text', () => {
    expect(listQuery.parse({ from: '2026-11-24T21:00:00+09:00' }).from).toBe('2026-11-24T12:00:00.000Z');
    expect(listQuery.safeParse({ from: '2026-11-24' }).success).toBe(false);
    expect(listQuery.safeParse({ from: '2026-11-24T21:00:00' }).success).toBe(false);
  });

  it('wants from before to', () => {
    expect(listQuery.safeParse({ from: '2026-11-24T00:00:00Z', to: '2026-11-24T00:00:00Z' }).success).toBe(false);
    expect(listQuery.safeParse({ from: '2026-11-24T00:00:00Z', to: '2026-11-24T00:00:01Z' }).success).toBe(true);
  });

  it('takes a CSV period of at most its days, both ends required', () => {
    const from = '2026-01-01T00:00:00Z';
    const longest = new Date(Date.parse(from) + maxDays * 86_400_000).toISOString();
    const tooLong = new Date(Date.parse(from) + maxDays * 86_400_000 + 1000).toISOString();
    expect(csvQuery.safeParse({ from, to: longest }).success).toBe(true);
    const refused = csvQuery.safeParse({ from, to: tooLong });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(`the period may be at most ${maxDays} days`);
    expect(csvQuery.safeParse({ from }).success).toBe(false);
    expect(csvQuery.safeParse({ from, to: longest, limit: '5' }).success).toBe(false);
  });
});
