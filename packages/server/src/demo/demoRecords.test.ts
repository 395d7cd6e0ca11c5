/** The demo records without a database: deterministic, dated up to yesterday in Tokyo, plausible. */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { issuesOf } from '@nemuri/shared/documents/validate';
import { describe, expect, it } from 'vitest';
import { buildDemoRecords, SLEEP_DAYS, type Data } from './demoRecords.ts';
import { DEMO_ROOMS } from './demoTenants.ts';
import { demoDataWanted } from './seedDemoData.ts';
import type { SleepRecord } from './sleepNight.ts';
import { addDays, tokyoDay } from './tokyoTime.ts';

const today = '2026-11-22';
const userIds = new Map([['individual@example.com', 'user-individual']]);
const records = buildDemoRecords({ today, userIds });
const sleeps = records.filter((record) => record.path.includes('/sleeps/'));
const minutesOfDay = (iso: string): number => Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));

describe('demo records', () => {
  it('are the same for the same day, and every one matches its collection schema', () => {
    expect(buildDemoRecords({ today, userIds })).toEqual(records);
    for (const record of records) {
      const name = record.path
        .split('/')
        .filter((_, index) => index % 2 === 0)
        .join('/');
      const spec = collectionByName(name);
      expect(spec, record.path).toBeDefined();
      expect([record.path, issuesOf(spec as NonNullable<typeof spec>, record.data)]).toEqual([record.path, []]);
    }
    expect(new Set(records.map((record) => record.path)).size).toBe(records.length);
  });

  it('hold 30 nights per occupied room, ending yesterday', () => {
    const occupied = DEMO_ROOMS.filter((room) => room.residentName !== null);
    expect(occupied).toHaveLength(22);
    expect(sleeps).toHaveLength(occupied.length * SLEEP_DAYS);
    const days = new Set(sleeps.map((record) => record.path.split('/').pop()));
    expect([...days].sort()).toEqual(Array.from({ length: SLEEP_DAYS }, (_, i) => addDays(today, i - SLEEP_DAYS)));
    expect(tokyoDay(new Date('2026-11-21T15:30:00Z'))).toBe('2026-11-22');
  });

  it('give the individual user the household rooms only', () => {
    const rooms = records.filter((record) => /^rooms\/[^/]+$/.test(record.path));
    expect(rooms.filter((room) => (room.data.ownerUids as string[]).includes('user-individual')).map((room) => room.data.domainId)).toEqual([
      DEMO_DOMAINS.household,
      DEMO_DOMAINS.household,
    ]);
  });

  it('have plausible nights whose metrics agree with their epochs', () => {
    const apneaByRoom = new Map<string, number[]>();
    for (const { path, data } of sleeps) {
      const night = data as unknown as SleepRecord;
      const bed = minutesOfDay(night.bedTime);
      expect(bed, path).toBeGreaterThanOrEqual(20 * 60 + 30);
      expect(bed, path).toBeLessThanOrEqual(22 * 60 + 30);
      const minutes = (Date.parse(night.outOfBedTime) - Date.parse(night.bedTime)) / 60_000;
      expect(night.epochs).toHaveLength(minutes);
      const asleep = night.epochs.filter((epoch) => epoch.state === 'light' || epoch.state === 'deep' || epoch.state === 'rem').length;
      expect(night.totalSleepMin).toBe(asleep);
      expect(night.outOfBedMin).toBe(night.epochs.filter((epoch) => epoch.state === 'outOfBed').length);
      expect(night.timeInBedMin).toBe(minutes - night.outOfBedMin);
      expect(night.sleepEfficiency, path).toBeGreaterThanOrEqual(55);
      expect(night.sleepEfficiency, path).toBeLessThanOrEqual(98);
      expect(Date.parse(night.sleepOnset) - Date.parse(night.bedTime)).toBe(night.sleepLatencyMin * 60_000);
      for (const stat of [night.respirationRate.min, night.respirationRate.max]) expect(stat).toSatisfy((value: number) => value >= 8 && value <= 25);
      for (const stat of [night.heartRate.min, night.heartRate.max]) expect(stat).toSatisfy((value: number) => value >= 45 && value <= 110);
      const room = path.split('/')[1] as string;
      apneaByRoom.set(room, [...(apneaByRoom.get(room) ?? []), night.apneaIndex]);
    }
    const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
    const efficiency = sleeps.map((record) => (record.data as Data).sleepEfficiency as number);
    expect(mean(efficiency)).toBeGreaterThan(75);
    expect(mean(efficiency)).toBeLessThan(92);
    // One resident has moderate sleep apnea (15-30 events an hour), the others none to mild.
    const moderate = [...apneaByRoom].filter(([, values]) => mean(values) >= 15 && mean(values) < 30).map(([room]) => room);
    expect(moderate).toEqual(['demo-a-102']);
    expect([...apneaByRoom].filter(([room]) => room !== 'demo-a-102').every(([, values]) => mean(values) < 10)).toBe(true);
  });

  it('have ended and acknowledged alerts only', () => {
    const alerts = records.filter((record) => record.path.startsWith('alerts/'));
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    expect(new Set(alerts.map((alert) => alert.data.type)).size).toBeGreaterThanOrEqual(5);
    for (const { data } of alerts) {
      expect(Date.parse(data.endedAt as string)).toBeGreaterThan(Date.parse(data.startedAt as string));
      expect(data.acknowledgedBy).toEqual(expect.any(String));
    }
  });
});

describe('demoDataWanted', () => {
  it('loads the set unless told not to, and under Vitest only when asked', () => {
    expect(demoDataWanted({})).toBe(true);
    expect(demoDataWanted({ NEMURI_DEMO_DATA: '0' })).toBe(false);
    expect(demoDataWanted({ VITEST: 'true' })).toBe(false);
    expect(demoDataWanted({ VITEST: 'true', NEMURI_DEMO_DATA: '1' })).toBe(true);
  });
});
