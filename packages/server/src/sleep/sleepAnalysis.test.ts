/**
 * The morning's sleep record from stored signals: sleep-day arithmetic, the replay through the live
 * estimator (same frames, same record), and the service that scores an ended day in a worker thread
 * and writes it, leaving days that already have a record alone. Real PGlite, real signal store.
 */
import { createParserSync } from '@nemuri/parser/node';
import type { SmfSampleFrame } from '@nemuri/parser/smf';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { DeviceSimulator, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { DocumentStore } from '../documents/store.ts';
import { RoomDirectory } from '../monitoring/roomDirectory.ts';
import { SignalStore, type PendingFrame } from '../signals/signalStore.ts';
import { NightReplay } from './nightReplay.ts';
import { SleepAnalysisService } from './sleepAnalysisService.ts';
import { lastEndedSleepDay, sleepDayOf, sleepDayRange, sleepDayRuleOf } from './sleepDay.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const parser = createParserSync();

/** `minutes` of a simulated device from `fromMs`, as stored frames (every channel but EIT). */
function recording(serial: string, fromMs: number, minutes: number): PendingFrame[] {
  const device = new DeviceSimulator({ serial, seed: 'sleep-analysis' });
  const sequences = new SequenceCounters();
  const frames: PendingFrame[] = [];
  for (let s = 0; s < minutes * 60; s++) {
    const second = device.generate(fromMs + s * 1000);
    if (second === null) continue;
    for (const frame of encodeSecond(parser, second, sequences)) {
      if (frame.channel === 'eit') continue;
      frames.push({
        serial,
        channel: frame.channel,
        startTimeUs: (fromMs + s * 1000) * 1000,
        sequence: s,
        bytes: frame.bytes,
        domainId: 'night',
        rootDomainId: 'night',
      });
    }
  }
  return frames;
}

function decoded(frames: readonly PendingFrame[]): SmfSampleFrame[] {
  return frames.flatMap((frame) => parser.decodeSmfStream(frame.bytes)).filter((frame): frame is SmfSampleFrame => frame.channel !== 'multi');
}

describe('sleep days', () => {
  const tokyo = sleepDayRuleOf({ sleepDayBoundaryHour: 12 }, 'Asia/Tokyo');

  it('runs from the boundary hour of the day to that of the next, in the domain zone', () => {
    expect(sleepDayOf(Date.parse('2026-11-23T09:00:00+09:00'), tokyo)).toBe('2026-11-22');
    expect(sleepDayOf(Date.parse('2026-11-22T12:00:00+09:00'), tokyo)).toBe('2026-11-22');
    expect(sleepDayOf(Date.parse('2026-11-22T11:59:59+09:00'), tokyo)).toBe('2026-11-21');
    expect(sleepDayRange('2026-11-22', tokyo)).toEqual({ startMs: Date.parse('2026-11-22T03:00:00Z'), endMs: Date.parse('2026-11-23T03:00:00Z') });
    expect(lastEndedSleepDay(Date.parse('2026-11-23T13:00:00+09:00'), tokyo)).toBe('2026-11-22');
  });

  it('is 23 hours long across a spring-forward change, and falls back to the defaults', () => {
    const newYork = sleepDayRuleOf({ sleepDayBoundaryHour: 0 }, 'America/New_York');
    const { startMs, endMs } = sleepDayRange('2026-03-08', newYork);
    expect((endMs - startMs) / 3_600_000).toBe(23);
    expect(sleepDayRuleOf({ sleepDayBoundaryHour: 30 }, 'Mars/Olympus')).toEqual({ boundaryHour: 12, timeZone: 'Asia/Tokyo' });
  });
});

describe('a stored night replayed', () => {
  it('gives the same record for the same frames, whatever the slicing, with the night in bed', () => {
    const start = Date.parse('2026-11-20T12:30:00Z'); // 21:30 in Tokyo: the simulated person is in bed
    const frames = decoded(recording('NIGHT-1', start, 20));
    const whole = new NightReplay(start, start + 30 * 60_000);
    whole.add(frames, start + 30 * 60_000);
    const first = whole.finish('live');
    const sliced = new NightReplay(start, start + 30 * 60_000);
    const half = start + 10 * 60_000;
    sliced.add(
      frames.filter((frame) => frame.startTimeUs / 1000 < half),
      half,
    );
    sliced.add(
      frames.filter((frame) => frame.startTimeUs / 1000 >= half),
      start + 30 * 60_000,
    );
    expect(sliced.finish('live')).toEqual(first);
    expect(first.epochs).toHaveLength(30);
    expect(first.epochStart).toBe(new Date(start).toISOString());
    expect(first.timeInBedMin).toBeGreaterThanOrEqual(15);
    expect(first.epochs.slice(25).every((epoch) => epoch.state === 'unknown')).toBe(true);
    expect(first.respirationRate.avg).toBeGreaterThan(8);
  });
});

describe('the sleep analysis service', () => {
  let database: Database;
  let documents: DocumentStore;
  let signals: SignalStore;
  let directory: RoomDirectory;
  // The night of 2026-11-20 (Tokyo), whose sleep day ends at 2026-11-21 12:00 Tokyo.
  const day = '2026-11-20';
  const start = Date.parse('2026-11-20T12:30:00Z');
  let now = Date.parse('2026-11-21T03:10:00Z');

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    documents = new DocumentStore(database, silent);
    signals = new SignalStore(database);
    await documents.set(system, 'domains/night', { name: '夜間施設', kind: 'facility', dates: { sleepDayBoundaryHour: 12 } }, false);
    await documents.set(system, 'rooms/night-1', { domainId: 'night', name: '101号室', deviceSerial: 'NIGHT-1' }, false);
    await documents.set(system, 'rooms/night-2', { domainId: 'night', name: '102号室', deviceSerial: 'NIGHT-2' }, false);
    await documents.set(system, 'rooms/night-3', { domainId: 'night', name: '103号室', deviceSerial: 'NIGHT-3' }, false);
    // An imported record of room 3 must stay as it is.
    await documents.set(system, `rooms/night-3/sleeps/${day}`, { source: 'upload-1', totalSleepMin: 400 }, false);
    await signals.append([...recording('NIGHT-1', start, 15), ...recording('NIGHT-3', start, 5)]);
    directory = new RoomDirectory(database, documents.changes, silent);
    await directory.start();
  }, 120_000);
  afterAll(async () => {
    await directory?.stop();
    await database?.close();
  });

  it('scores an ended day with frames in a worker and writes it; days with a record or without frames are left', { timeout: 120_000 }, async () => {
    const service = new SleepAnalysisService({ documents, signals, directory, log: silent, now: () => now, settleMs: 0 });
    // Before the day has ended nothing is due.
    now = Date.parse('2026-11-21T02:00:00Z');
    expect(await service.runDue()).toEqual([]);
    now = Date.parse('2026-11-21T03:10:00Z');
    const scored = await service.runDue();
    expect(scored).toEqual([{ roomId: 'night-1', day, frames: expect.any(Number), written: true }]);
    expect(scored[0]?.frames).toBeGreaterThan(15 * 60 * 5);
    const record = await documents.get(system, `rooms/night-1/sleeps/${day}`);
    expect(record?.document).toMatchObject({
      source: 'live',
      epochStart: new Date(sleepDayRange(day, { boundaryHour: 12, timeZone: 'Asia/Tokyo' }).startMs).toISOString(),
    });
    expect(record?.document.timeInBedMin).toBeGreaterThanOrEqual(10);
    expect(await documents.get(system, `rooms/night-2/sleeps/${day}`)).toBeNull();
    expect((await documents.get(system, `rooms/night-3/sleeps/${day}`))?.document).toMatchObject({ source: 'upload-1', totalSleepMin: 400 });
    // Decided days are not looked at again; a re-run on request gives the same record.
    expect(await service.runDue()).toEqual([]);
    const again = await service.analyze('night-1', 'NIGHT-1', day);
    expect(again.written).toBe(true);
    const rerun = await documents.get(system, `rooms/night-1/sleeps/${day}`);
    const { createdAt: _c1, updatedAt: _u1, ...first } = record?.document ?? {};
    const { createdAt: _c2, updatedAt: _u2, ...second } = rerun?.document ?? {};
    expect(second).toEqual(first);
    expect((await service.analyze('night-3', 'NIGHT-3', day)).written).toBe(false);
    await service.stop();
  });
});
