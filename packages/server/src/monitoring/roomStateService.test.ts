/**
 * The room-state service wired to real parts: simulated frames through the live hub, rooms and
 * domains from the document store (PGlite), alerts stored as records, acknowledgement by update,
 * and sounding again. Time is the test's: the service is ticked by hand.
 */
import { loadParser } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { ALERT_TYPE_NAMES, alertStatus, onStation } from '@nemuri/shared/monitoring';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { DeviceSimulator, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { DocumentStore } from '../documents/store.ts';
import { LiveHub } from '../signals/liveHub.ts';
import { RoomStateService } from './roomStateService.ts';
import type { RoomStateSharing } from './roomStateSharing.ts';

const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
/** A scenario time when the simulated person is in bed, awake, at 21:30 Tokyo on some day. */
const EVENING = Date.parse('2026-11-20T12:30:00.000Z');

describe('the room-state service', () => {
  let database: Database;
  let store: DocumentStore;
  let parser: Parser;
  let hub: LiveHub;
  let service: RoomStateService;
  let now = EVENING;

  /** Sends `seconds` simulated seconds of the device ending at `now`. */
  const stream = (device: DeviceSimulator, sequences: SequenceCounters, fromMs: number, seconds: number) => {
    for (let s = 0; s < seconds; s++) {
      const second = device.generate(fromMs + s * 1000);
      if (second === null) continue;
      for (const frame of encodeSecond(parser, second, sequences)) hub.frame(device.serial, frame.channel as SmfSampleChannel, frame.bytes);
    }
  };
  const alertsOf = async (roomId: string) =>
    (await store.query(system, { collection: 'alerts', where: [['roomId', '==', roomId]], orderBy: [['startedAt']], limit: 100 })) as {
      documentReferenceId: string;
      type: string;
      endedAt?: string | null;
      acknowledgedAt?: string | null;
    }[];
  const settle = () => service.settled();

  beforeAll(async () => {
    parser = await loadParser();
    database = await openPglite(null);
    await migrate(database);
    // The store records acknowledgements at the server's time: the test's clock.
    store = new DocumentStore(database, silent, undefined, { now: () => now });
    await store.set(system, 'domains/mon', { name: '監視施設', kind: 'facility', numbers: { deviceOfflineMin: 0.1 } }, false);
    await store.set(system, 'rooms/mon-1', { domainId: 'mon', name: '101号室', deviceSerial: 'MON-1' }, false);
    await store.set(system, 'rooms/mon-2', { domainId: 'mon', name: '102号室', deviceSerial: 'MON-2' }, false);
    await store.set(system, 'rooms/mon-3', { domainId: 'mon', name: '103号室' }, false);
    hub = new LiveHub();
    service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, resoundAfterSec: 30, now: () => now });
    await service.start();
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await database?.close();
  });

  it("gives every room with a device a state, from that device's frames", async () => {
    const device = new DeviceSimulator({ serial: 'MON-1', seed: 'monitoring' });
    stream(device, new SequenceCounters(), now - 60_000, 60);
    service.tick();
    const states = service.states;
    expect(states.map((state) => state.roomId).sort()).toEqual(['mon-1', 'mon-2']);
    const streaming = states.find((state) => state.roomId === 'mon-1');
    expect(streaming).toMatchObject({ serial: 'MON-1', domainId: 'mon', at: now });
    expect(['awake', 'asleep', 'outOfBed', 'noBreathing']).toContain(streaming?.state);
    expect(states.find((state) => state.roomId === 'mon-2')?.state).toBe('offline');
  });

  it("opens a device-offline alert after the domain's minutes, and ends it when frames come back", async () => {
    // deviceOfflineMin 0.1: 6 s.
    for (let s = 0; s < 8; s++) {
      now += 1000;
      service.tick();
    }
    await settle();
    const [offline] = (await alertsOf('mon-2')).filter((alert) => alert.type === 'deviceOffline');
    expect(offline).toMatchObject({ type: 'deviceOffline', endedAt: null });

    const device = new DeviceSimulator({ serial: 'MON-2', seed: 'monitoring-2' });
    stream(device, new SequenceCounters(), now - 30_000, 30);
    now += 1000;
    service.tick();
    await settle();
    const ended = (await alertsOf('mon-2')).find((alert) => alert.documentReferenceId === offline?.documentReferenceId);
    expect(ended?.endedAt).toEqual(expect.any(String));
  });

  it('sounds an acknowledged alert again while its condition persists', async () => {
    // mon-1 stops sending: offline, then the alert.
    for (let s = 0; s < 20; s++) {
      now += 1000;
      service.tick();
    }
    await settle();
    const open = (await alertsOf('mon-1')).find((alert) => alert.type === 'deviceOffline' && !alert.endedAt);
    expect(open).toBeDefined();
    await store.update({ uid: 'nurse', accessLevel: ROLE_LEVELS.generalStaff, domainId: 'mon', rootDomainId: 'mon' }, `alerts/${open?.documentReferenceId}`, {
      acknowledgedBy: 'nurse',
    });
    // The service reads the acknowledgement from the change feed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let s = 0; s < 31; s++) {
      now += 1000;
      service.tick();
    }
    await settle();
    const again = (await alertsOf('mon-1')).find((alert) => alert.documentReferenceId === open?.documentReferenceId);
    expect(again).toMatchObject({ acknowledgedAt: null, endedAt: null });
  });

  it('keeps open alerts and their history when the directory re-reads unchanged numbers', async () => {
    const before = (await alertsOf('mon-1')).filter((alert) => !alert.endedAt);
    expect(before.length).toBeGreaterThan(0);
    // Any room or domain change re-reads the directory into new objects: that is not a change of numbers.
    await service.directory.refresh();
    now += 1000;
    service.tick();
    await settle();
    const after = (await alertsOf('mon-1')).filter((alert) => !alert.endedAt);
    expect(after.map((alert) => alert.documentReferenceId)).toEqual(before.map((alert) => alert.documentReferenceId));
  });

  it('stops watching a room whose device is taken away', async () => {
    await store.update(system, 'rooms/mon-2', { deviceSerial: null });
    await service.directory.refresh();
    service.tick();
    expect(service.states.map((state) => state.roomId)).toEqual(['mon-1']);
  });
});

describe('out-of-bed alerts and the night', () => {
  it('raises none in the daytime, when residents are up', async () => {
    const parser = await loadParser();
    const database = await openPglite(null);
    try {
      await migrate(database);
      const store = new DocumentStore(database, silent);
      await store.set(system, 'domains/day', { name: '日中施設', kind: 'facility', dates: { nightStart: '21:00', nightEnd: '07:00' } }, false);
      await store.set(system, 'rooms/day-1', { domainId: 'day', name: '301号室', deviceSerial: 'DAY-1' }, false);
      const hub = new LiveHub();
      // 10:00 in Tokyo: the simulated resident is up and about.
      let now = Date.parse('2026-11-20T10:00:00+09:00');
      const service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, now: () => now });
      await service.start();
      const device = new DeviceSimulator({ serial: 'DAY-1', seed: 'daytime' });
      const sequences = new SequenceCounters();
      for (let s = -60; s < 30; s++) {
        const second = device.generate(now + s * 1000);
        if (second !== null) for (const frame of encodeSecond(parser, second, sequences)) hub.frame('DAY-1', frame.channel as SmfSampleChannel, frame.bytes);
        if (s >= 0) {
          now += 1000;
          service.tick();
        }
      }
      await service.settled();
      expect(device.stateAt(now).presence).toBe('out-of-bed');
      expect(service.states[0]?.state).toBe('outOfBed');
      const alerts = await store.query(system, { collection: 'alerts', where: [['roomId', '==', 'day-1']] });
      expect(alerts.filter((alert) => alert.type === 'outOfBed' || alert.type === 'longOutOfBed')).toEqual([]);
      await service.stop();
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('per-room alert settings', () => {
  it("change when a room's alerts open: its own night, bed-exit delay and types switched off", async () => {
    const parser = await loadParser();
    const database = await openPglite(null);
    try {
      await migrate(database);
      const store = new DocumentStore(database, silent);
      await store.set(
        system,
        'domains/ovr',
        { name: '個別設定施設', kind: 'facility', dates: { nightStart: '21:00', nightEnd: '07:00' }, numbers: { outOfBedAlertMin: 10 } },
        false,
      );
      // The same resident's frames go to four rooms; only their settings differ.
      const morningNight = { nightStart: '09:00', nightEnd: '12:00' };
      const rooms: Record<string, Record<string, unknown> | null> = {
        'OVR-DOMAIN': null,
        'OVR-NIGHT': morningNight,
        'OVR-FAST': { ...morningNight, numbers: { outOfBedAlertMin: 0 } },
        'OVR-OFF': { ...morningNight, disabledTypes: ['outOfBed'] },
      };
      for (const [serial, alertSettings] of Object.entries(rooms))
        await store.set(system, `rooms/${serial.toLowerCase()}`, { domainId: 'ovr', name: serial, deviceSerial: serial, alertSettings }, false);
      const hub = new LiveHub();
      // 10:00 in Tokyo: the simulated resident is up — daytime for the domain, night for three rooms.
      let now = Date.parse('2026-11-20T10:00:00+09:00');
      const service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, now: () => now });
      await service.start();
      const device = new DeviceSimulator({ serial: 'OVR', seed: 'daytime' });
      const sequences = new SequenceCounters();
      for (let s = -60; s < 30; s++) {
        const second = device.generate(now + s * 1000);
        if (second !== null)
          for (const frame of encodeSecond(parser, second, sequences))
            for (const serial of Object.keys(rooms)) hub.frame(serial, frame.channel as SmfSampleChannel, frame.bytes);
        if (s >= 0) {
          now += 1000;
          service.tick();
        }
      }
      await service.settled();
      expect(device.stateAt(now).presence).toBe('out-of-bed');
      const types = async (roomId: string) =>
        (await store.query(system, { collection: 'alerts', where: [['roomId', '==', roomId]] }))
          .map((alert) => String(alert.type))
          .filter((type) => type === 'outOfBed' || type === 'longOutOfBed')
          .sort();
      expect(await types('ovr-domain')).toEqual([]);
      expect(await types('ovr-night')).toEqual(['outOfBed']);
      expect(await types('ovr-fast')).toEqual(['longOutOfBed', 'outOfBed']);
      expect(await types('ovr-off')).toEqual([]);
      await service.stop();
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('per-room sitting-up delay', () => {
  it("raises 起きあがり after the room's own delay: on in a room of a domain that keeps it off, off in a room of a domain that has it on", async () => {
    const parser = await loadParser();
    const database = await openPglite(null);
    try {
      await migrate(database);
      const store = new DocumentStore(database, silent);
      await store.set(system, 'domains/sit-off', { name: '起きあがりなし施設', kind: 'facility', numbers: { sittingUpAlertSec: 0 } }, false);
      await store.set(system, 'domains/sit-on', { name: '起きあがりあり施設', kind: 'facility', numbers: { sittingUpAlertSec: 5 } }, false);
      // One resident's frames go to every room; the domains and the rooms' delays differ.
      const rooms: Record<string, { domainId: string; alertSettings: Record<string, unknown> | null }> = {
        'SIT-A': { domainId: 'sit-off', alertSettings: null },
        'SIT-B': { domainId: 'sit-off', alertSettings: { numbers: { sittingUpAlertSec: 5 } } },
        // Longer than the resident ever sits on the edge of the bed (10–40 s): never raised.
        'SIT-C': { domainId: 'sit-off', alertSettings: { numbers: { sittingUpAlertSec: 300 } } },
        'SIT-D': { domainId: 'sit-on', alertSettings: null },
        'SIT-E': { domainId: 'sit-on', alertSettings: { numbers: { sittingUpAlertSec: 0 } } },
      };
      for (const [serial, room] of Object.entries(rooms))
        await store.set(system, `rooms/${serial.toLowerCase()}`, { ...room, name: serial, deviceSerial: serial }, false);
      const source = new DeviceSimulator({ serial: 'NM-0004', seed: 1 });
      const sitting = source.timeline.sittingUp[0]!;
      const hub = new LiveHub();
      let now = NIGHT_ORIGIN;
      const service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, now: () => now });
      await service.start();
      const sequences = new SequenceCounters();
      for (let s = sitting.start - 60; s < sitting.end + 30; s++) {
        const second = source.generate(NIGHT_ORIGIN + s * 1000);
        now = NIGHT_ORIGIN + (s + 1) * 1000;
        if (second !== null)
          for (const frame of encodeSecond(parser, second, sequences, STATE_CHANNELS))
            for (const serial of Object.keys(rooms)) hub.frame(serial, frame.channel as SmfSampleChannel, frame.bytes);
        service.tick();
      }
      await service.settled();
      const sittingUp = async (roomId: string) =>
        (
          await store.query(system, {
            collection: 'alerts',
            where: [
              ['roomId', '==', roomId],
              ['type', '==', 'sittingUp'],
            ],
          })
        ).length;
      expect(await sittingUp('sit-a')).toBe(0);
      expect(await sittingUp('sit-b')).toBeGreaterThan(0);
      expect(await sittingUp('sit-c')).toBe(0);
      expect(await sittingUp('sit-d')).toBeGreaterThan(0);
      expect(await sittingUp('sit-e')).toBe(0);
      await service.stop();
    } finally {
      await database.close();
    }
  }, 60_000);
});

/** Scenario second 0 of the simulated nights (20:00 in Tokyo) on the day the tests live in. */
const NIGHT_ORIGIN = Date.parse('2026-11-20T20:00:00+09:00');
/** The channels the room state reads (EIT is left out: it costs time and the state does not need it). */
const STATE_CHANNELS = ['ecg', 'respiAxl', 'impe', 'respiHr', 'temperature', 'button'] as const;

interface Delivery {
  dueAt: number;
  frames: { channel: SmfSampleChannel; bytes: Uint8Array }[];
}

/**
 * A network between devices and the server that delivers each device's seconds late by `lag()` ms (in
 * order, as one MQTT connection does: a second never overtakes the one before).
 */
class LateLink {
  readonly #queues = new Map<string, Delivery[]>();
  readonly #lags = new Map<string, () => number>();
  readonly #hub: LiveHub;

  constructor(hub: LiveHub) {
    this.#hub = hub;
  }

  route(serial: string, lag: () => number): void {
    this.#lags.set(serial, lag);
    this.#queues.set(serial, []);
  }

  /** One second of frames, sent by every routed device when the second ends (`endMs`). */
  send(endMs: number, frames: readonly { channel: string; bytes: Uint8Array }[]): void {
    for (const [serial, queue] of this.#queues) {
      const dueAt = Math.max(queue.at(-1)?.dueAt ?? Number.NEGATIVE_INFINITY, endMs + this.#lags.get(serial)!());
      queue.push({ dueAt, frames: frames.map((frame) => ({ channel: frame.channel as SmfSampleChannel, bytes: frame.bytes.slice() })) });
    }
  }

  /** Hands the server everything due by `now`. */
  deliver(now: number): void {
    for (const [serial, queue] of this.#queues) {
      while (queue.length > 0 && queue[0]!.dueAt <= now) for (const frame of queue.shift()!.frames) this.#hub.frame(serial, frame.channel, frame.bytes);
    }
  }
}

/** Seeded uniform numbers in [0, 1) (mulberry32), so that the jitter is the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("states on the devices' time", () => {
  it('are the same delivered 3 s and 8 s late or jittered, never offline nor flickering; 14 s late reads 遅延; the tachycardia raises heartRateHigh', async () => {
    const parser = await loadParser();
    const database = await openPglite(null);
    try {
      await migrate(database);
      const store = new DocumentStore(database, silent);
      await store.set(system, 'domains/late', { name: '遅延施設', kind: 'facility' }, false);
      const lags: Record<string, () => number> = {
        'LATE-0': () => 0,
        'LATE-3': () => 3000,
        'LATE-8': () => 8000,
        'LATE-J': (() => {
          const random = seededRandom(18);
          return () => 500 + random() * 7500;
        })(),
        'LATE-14': () => 14_000,
      };
      for (const serial of Object.keys(lags))
        await store.set(system, `rooms/${serial.toLowerCase()}`, { domainId: 'late', name: serial, deviceSerial: serial }, false);
      const source = new DeviceSimulator({ serial: 'NM-0001', seed: 1 });
      const { tachycardia } = source.timeline;
      // From 400 s before the tachycardia: the person falls asleep (5 quiet minutes), then the heart races.
      const from = NIGHT_ORIGIN + (tachycardia.start - 400) * 1000;
      const seconds = 500;
      let now = from;
      const hub = new LiveHub();
      const link = new LateLink(hub);
      for (const [serial, lag] of Object.entries(lags)) link.route(serial, lag);
      const service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, now: () => now });
      await service.start();
      const seen = new Map<string, { at: number; dataAt: number | null; state: string }[]>();
      const sequences = new SequenceCounters();
      for (let s = 0; s < seconds; s++) {
        const second = source.generate(from + s * 1000);
        if (second !== null) link.send(from + (s + 1) * 1000, encodeSecond(parser, second, sequences, STATE_CHANNELS));
        now = from + (s + 1) * 1000;
        link.deliver(now);
        service.tick();
        for (const state of service.states) {
          const list = seen.get(state.serial) ?? [];
          list.push({ at: state.at, dataAt: state.dataAt ?? null, state: state.state });
          seen.set(state.serial, list);
        }
      }
      await service.settled();

      // The reference: delivered at once. Its state at each second of device time.
      const reference = new Map(
        seen
          .get('LATE-0')!
          .filter((tick) => tick.dataAt !== null)
          .map((tick) => [tick.dataAt!, tick.state]),
      );
      const changes = (states: readonly string[]) => states.filter((state, i) => i > 0 && state !== states[i - 1]).length;
      const warm = (serial: string) => seen.get(serial)!.filter((tick) => tick.at >= from + 30_000);
      expect(new Set(warm('LATE-0').map((tick) => tick.state))).toEqual(new Set(['awake', 'asleep']));
      for (const serial of ['LATE-3', 'LATE-8', 'LATE-J']) {
        const ticks = warm(serial);
        expect(
          ticks.filter((tick) => tick.state === 'offline' || tick.state === 'late'),
          serial,
        ).toEqual([]);
        // The same state as the reference at the same device time, every second.
        for (const tick of ticks) expect(`${serial} ${tick.state}`).toBe(`${serial} ${reference.get(tick.dataAt!)}`);
        expect(changes(ticks.map((tick) => tick.state)), serial).toBeLessThanOrEqual(changes(warm('LATE-0').map((tick) => tick.state)));
      }
      // 14 s behind: 遅延, never offline, with the data's own time.
      const late = warm('LATE-14');
      expect(new Set(late.map((tick) => tick.state))).toEqual(new Set(['late']));
      for (const tick of late) expect(tick.at - (tick.dataAt ?? 0)).toBe(14_000);

      // The simulated tachycardia (125–140 beats/min for minutes) is a heart-rate-high alert however late the data.
      const alerts = await store.query(system, { collection: 'alerts', where: [['type', '==', 'heartRateHigh']] });
      expect(alerts.map((alert) => alert.roomId).sort()).toEqual(
        Object.keys(lags)
          .map((serial) => serial.toLowerCase())
          .sort(),
      );
      // Dated from the device's samples: the same start for every room.
      expect(new Set(alerts.map((alert) => alert.startedAt)).size).toBe(1);

      // The devices fall silent: the state holds for the tolerance, then 遅延, and 通信なし only once the
      // domain's offline minutes (5) have passed without a frame.
      const lastFrame = now;
      const quiet: string[] = [];
      for (let s = 1; s <= 310; s++) {
        now = lastFrame + s * 1000;
        link.deliver(now);
        service.tick();
        quiet.push(service.states.find((state) => state.serial === 'LATE-0')!.state);
      }
      const runs = quiet.filter((state, i) => i === 0 || state !== quiet[i - 1]);
      expect(runs.slice(1)).toEqual(['late', 'offline']);
      expect(quiet.indexOf('late')).toBe(10);
      expect(quiet.indexOf('offline')).toBe(299);
      await service.stop();
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('the alert lifecycle', () => {
  it('opens every alert type, keeps each on the station after its condition ends until someone acknowledges it, and sounds it again while active', async () => {
    const parser = await loadParser();
    const database = await openPglite(null);
    try {
      await migrate(database);
      let now = NIGHT_ORIGIN;
      const store = new DocumentStore(database, silent, undefined, { now: () => now });
      // Numbers that make an ordinary night alarming, so that every rate and the temperature raise alerts.
      const numbers = {
        heartRateHigh: 40,
        heartRateLow: 100,
        respirationRateHigh: 10,
        respirationRateLow: 20,
        temperatureHigh: 30,
        outOfBedAlertMin: 1,
        noBreathingAlertSec: 5,
        deviceOfflineMin: 0.1,
        sittingUpAlertSec: 5,
      };
      await store.set(system, 'domains/cycle', { name: 'ライフサイクル施設', kind: 'facility', numbers }, false);
      await store.set(system, 'rooms/cycle-1', { domainId: 'cycle', name: '501号室', deviceSerial: 'CYCLE-1' }, false);
      // A device whose night has a ventricular flutter episode (心拍異常).
      const source = new DeviceSimulator({ serial: 'NM-0004', seed: 1 });
      const { button, apnea, outOfBed } = source.timeline;
      const flutter = source.timeline.flutter!;
      const hub = new LiveHub();
      const service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 3_600_000, resoundAfterSec: 10, now: () => now });
      await service.start();
      const sequences = new SequenceCounters();
      /** Streams the device's scenario seconds [from, from + seconds) in real time, ticking every second. */
      const stream = (from: number, seconds: number) => {
        for (let s = from; s < from + seconds; s++) {
          const second = source.generate(NIGHT_ORIGIN + s * 1000);
          now = NIGHT_ORIGIN + (s + 1) * 1000;
          if (second !== null)
            for (const frame of encodeSecond(parser, second, sequences, STATE_CHANNELS)) hub.frame('CYCLE-1', frame.channel as SmfSampleChannel, frame.bytes);
          service.tick();
        }
      };
      const silence = (seconds: number) => {
        for (let s = 0; s < seconds; s++) {
          now += 1000;
          service.tick();
        }
      };
      type Stored = {
        documentReferenceId: string;
        type: string;
        startedAt: string;
        endedAt: string | null;
        acknowledgedAt: string | null;
        acknowledgedBy: string | null;
        soundedAt: string | null;
      };
      const alerts = async () => {
        await service.settled();
        return (await store.query(system, {
          collection: 'alerts',
          where: [['roomId', '==', 'cycle-1']],
          orderBy: [['startedAt']],
          limit: 200,
        })) as unknown as Stored[];
      };
      const nurse = { uid: 'nurse-7', accessLevel: ROLE_LEVELS.generalStaff, domainId: 'cycle', rootDomainId: 'cycle' };
      const acknowledge = async (alert: Stored) => {
        await store.update(nurse, `alerts/${alert.documentReferenceId}`, { acknowledgedBy: nurse.uid });
        // The service reads acknowledgements from the change feed.
        await new Promise((resolve) => setTimeout(resolve, 200));
      };
      const resounded = (alert: Stored) => Date.parse(alert.soundedAt ?? '') - Date.parse(alert.startedAt) >= 10_000;

      // In bed before, during and after the nurse call (pressed at `button.start`, active for 2 minutes).
      stream(button.start - 80, 280);
      let stored = await alerts();
      const call = stored.find((alert) => alert.type === 'button')!;
      expect(call).toMatchObject({ acknowledgedAt: null, endedAt: expect.any(String) });
      expect(onStation(call)).toBe(true);
      expect(resounded(call)).toBe(true);
      for (const type of ['heartRateHigh', 'heartRateLow', 'respirationHigh', 'respirationLow', 'temperatureHigh']) {
        const alert = stored.find((candidate) => candidate.type === type);
        expect(alert, type).toMatchObject({ endedAt: null, acknowledgedAt: null });
        expect(resounded(alert!), `${type} sounded again`).toBe(true);
      }
      // Acknowledged after it ended: who and when are kept, and it leaves the station.
      await acknowledge(call);
      stored = await alerts();
      expect(stored.find((alert) => alert.documentReferenceId === call.documentReferenceId)).toMatchObject({
        acknowledgedBy: 'nurse-7',
        acknowledgedAt: new Date(now).toISOString(),
      });
      expect(onStation(stored.find((alert) => alert.documentReferenceId === call.documentReferenceId)!)).toBe(false);
      // Acknowledged while active: 10 s later it sounds again and the acknowledgement no longer holds.
      const fast = stored.find((alert) => alert.type === 'heartRateHigh')!;
      await acknowledge(fast);
      const acknowledgedAt = now;
      stream(button.start + 200, 12);
      stored = await alerts();
      const again = stored.find((alert) => alert.documentReferenceId === fast.documentReferenceId)!;
      expect(again).toMatchObject({ acknowledgedAt: null, acknowledgedBy: null, endedAt: null });
      expect(Date.parse(again.soundedAt!)).toBeGreaterThanOrEqual(acknowledgedAt + 10_000);

      // Out of bed at night for more than the domain's minute, then (hours later) the breathing pause.
      stream(outOfBed[0]!.start - 60, 210);
      stream(apnea.start - 60, apnea.end - apnea.start + 100);
      stream(flutter.start - 60, flutter.end - flutter.start + 100);
      // The device falls silent past the domain's offline time, then comes back.
      silence(30);
      stream(flutter.end + 70, 30);

      stored = await alerts();
      for (const type of ALERT_TYPE_NAMES) {
        const ofType = stored.filter((alert) => alert.type === type);
        expect(ofType.length, `${type} opened`).toBeGreaterThan(0);
        expect(ofType.some(resounded), `${type} sounded again while active`).toBe(true);
        // Ended and nobody acknowledged it: still on the station (終了・未確認).
        const waiting = ofType.filter((alert) => alertStatus(alert) === 'endedUnacknowledged');
        if (type !== 'button') expect(waiting.length, `${type} ended, unacknowledged`).toBeGreaterThan(0);
        for (const alert of waiting) expect(onStation(alert)).toBe(true);
      }
      await service.stop();
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('a room handed from one process to another (docs/scaling.md, several processes)', () => {
  /** Ownership set by the test: the device belongs to `owner`. */
  class HandSharing implements RoomStateSharing {
    owner = 'a';
    constructor(readonly me: string) {}
    owns(): boolean {
      return this.owner === this.me;
    }
    follow(): void {}
    publish(): void {}
    remote(): undefined {
      return undefined;
    }
  }

  it(
    "keeps the staff's acknowledgement of a continued alert (it sounds again as it would have on one process) and calls no device offline before the new owner had its frames",
    { timeout: 120_000 },
    async () => {
      const database = await openPglite(null);
      try {
        await migrate(database);
        let now = EVENING;
        const store = new DocumentStore(database, silent, undefined, { now: () => now });
        await store.set(system, 'domains/hand', { name: '引継施設', kind: 'facility', numbers: { deviceOfflineMin: 0.5 } }, false);
        await store.set(system, 'rooms/hand-1', { domainId: 'hand', name: '601号室', deviceSerial: 'HAND-1' }, false);
        const sharings = { a: new HandSharing('a'), b: new HandSharing('b') };
        const hubs = { a: new LiveHub(), b: new LiveHub() };
        const services = {
          a: new RoomStateService({ documents: store, hub: hubs.a, log: silent, tickMs: 3_600_000, resoundAfterSec: 30, now: () => now, sharing: sharings.a }),
          b: new RoomStateService({ documents: store, hub: hubs.b, log: silent, tickMs: 3_600_000, resoundAfterSec: 30, now: () => now, sharing: sharings.b }),
        };
        await Promise.all([services.a.start(), services.b.start()]);
        const parser = await loadParser();
        const device = new DeviceSimulator({ serial: 'HAND-1', seed: 'hand-over' });
        const sequences = new SequenceCounters();
        /** Where the device's frames go: the owner subscribes to them in its tick (follow), so from the next second. */
        let routed: 'a' | 'b' = 'a';
        /** `seconds` of the device, each followed by both processes' tick. */
        const run = (seconds: number, sending: boolean) => {
          for (let s = 0; s < seconds; s++) {
            const second = sending ? device.generate(now) : null;
            now += 1000;
            if (second !== null)
              for (const frame of encodeSecond(parser, second, sequences)) hubs[routed].frame('HAND-1', frame.channel as SmfSampleChannel, frame.bytes);
            services.a.tick();
            services.b.tick();
            routed = sharings.a.owner as 'a' | 'b';
          }
        };
        const hand = (to: 'a' | 'b') => {
          sharings.a.owner = to;
          sharings.b.owner = to;
        };
        const alerts = async () => {
          await Promise.all([services.a.settled(), services.b.settled()]);
          return (await store.query(system, { collection: 'alerts', where: [['roomId', '==', 'hand-1']], limit: 100 })) as {
            documentReferenceId: string;
            type: string;
            endedAt: string | null;
            acknowledgedAt: string | null;
            soundedAt: string | null;
          }[];
        };

        // Both processes have run a minute (longer than the 30 s offline delay); A computes the room from its frames.
        run(60, true);
        expect(services.a.states[0]?.state).not.toBe('offline');
        // Handed to B while the device sends: B has not had its frames in the first second, yet no offline alert.
        hand('b');
        run(20, true);
        expect(services.b.states[0]?.state).not.toBe('offline');
        expect(await alerts()).toEqual([]);

        // The device falls silent: B opens its offline alert; a nurse acknowledges it.
        run(40, false);
        const [offline] = await alerts();
        expect(offline).toMatchObject({ type: 'deviceOffline', endedAt: null });
        await store.update(
          { uid: 'nurse', accessLevel: ROLE_LEVELS.generalStaff, domainId: 'hand', rootDomainId: 'hand' },
          `alerts/${offline!.documentReferenceId}`,
          {
            acknowledgedBy: 'nurse',
          },
        );
        const acknowledgedAt = now;
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Back to A, which continues the alert (still offline there), not a second one, still acknowledged.
        hand('a');
        for (let s = 0; s < 20; s++) {
          run(1, false);
          await Promise.all([services.a.settled(), services.b.settled()]);
        }
        let found = await alerts();
        expect(found).toEqual([
          expect.objectContaining({ documentReferenceId: offline!.documentReferenceId, endedAt: null, acknowledgedAt: expect.any(String) }),
        ]);
        // 30 s after the acknowledgement it sounds again and the acknowledgement no longer holds (as on one process).
        while (now < acknowledgedAt + 32_000) {
          run(1, false);
          await Promise.all([services.a.settled(), services.b.settled()]);
        }
        found = await alerts();
        expect(found).toEqual([expect.objectContaining({ documentReferenceId: offline!.documentReferenceId, endedAt: null, acknowledgedAt: null })]);
        await Promise.all([services.a.stop(), services.b.stop()]);
      } finally {
        await database.close();
      }
    },
  );

  it('reads the same states when each frame comes twice (its share and a plain copy while the share is handed over)', { timeout: 60_000 }, async () => {
    const database = await openPglite(null);
    try {
      await migrate(database);
      let now = EVENING;
      const store = new DocumentStore(database, silent, undefined, { now: () => now });
      await store.set(system, 'domains/twice', { name: '二重施設', kind: 'facility' }, false);
      await store.set(system, 'rooms/twice-1', { domainId: 'twice', name: '701号室', deviceSerial: 'TWICE-1' }, false);
      // Two processes' services computing the same room: one gets each frame once, the other twice.
      const hubs = { once: new LiveHub(), twice: new LiveHub() };
      const options = { documents: store, log: silent, tickMs: 3_600_000, now: () => now };
      const services = {
        once: new RoomStateService({ ...options, hub: hubs.once, sharing: new HandSharing('a') }),
        twice: new RoomStateService({ ...options, hub: hubs.twice, sharing: new HandSharing('a') }),
      };
      await Promise.all([services.once.start(), services.twice.start()]);
      const parser = await loadParser();
      const device = new DeviceSimulator({ serial: 'TWICE-1', seed: 'twice' });
      const sequences = new SequenceCounters();
      const seen: { once: string[]; twice: string[] } = { once: [], twice: [] };
      for (let second = 0; second < 120; second++) {
        const data = device.generate(now);
        now += 1000;
        for (const frame of data === null ? [] : encodeSecond(parser, data, sequences)) {
          hubs.once.frame('TWICE-1', frame.channel as SmfSampleChannel, frame.bytes);
          hubs.twice.frame('TWICE-1', frame.channel as SmfSampleChannel, frame.bytes);
          hubs.twice.frame('TWICE-1', frame.channel as SmfSampleChannel, frame.bytes);
        }
        services.once.tick();
        services.twice.tick();
        for (const key of ['once', 'twice'] as const) {
          const state = services[key].states.find((room) => room.roomId === 'twice-1')!;
          seen[key].push(`${state.state} ${state.respirationRate} ${state.heartRate}`);
        }
      }
      expect(seen.once.some((line) => line.startsWith('asleep') || line.startsWith('awake'))).toBe(true);
      expect(seen.twice).toEqual(seen.once);
      await Promise.all([services.once.stop(), services.twice.stop()]);
    } finally {
      await database.close();
    }
  });
});

describe('the room-state service after this process did not run for a while', () => {
  let database: Database;
  let store: DocumentStore;
  let service: RoomStateService;
  let now = EVENING;
  const waitForTimer = () => new Promise((resolve) => setTimeout(resolve, 120));

  beforeAll(async () => {
    database = await openPglite(null);
    await migrate(database);
    store = new DocumentStore(database, silent, undefined, { now: () => now });
    // Offline after 6 s without frames.
    await store.set(system, 'domains/stall', { name: '停止施設', kind: 'facility', numbers: { deviceOfflineMin: 0.1 } }, false);
    await store.set(system, 'rooms/stall-1', { domainId: 'stall', name: '201号室', deviceSerial: 'STALL-1' }, false);
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await database?.close();
  });

  it('does not count the time it stood still as a device’s silence, and counts the silence after it', async () => {
    const parser = await loadParser();
    const hub = new LiveHub();
    // Ticked by its own timer every 50 ms of real time, on the test's clock.
    service = new RoomStateService({ documents: store, hub, log: silent, tickMs: 50, now: () => now });
    await service.start();
    const device = new DeviceSimulator({ serial: 'STALL-1', seed: 'stall' });
    const sequences = new SequenceCounters();
    const send = (fromMs: number, seconds: number) => {
      for (let s = 0; s < seconds; s++) {
        const second = device.generate(fromMs + s * 1000);
        if (second !== null)
          for (const frame of encodeSecond(parser, second, sequences)) hub.frame(device.serial, frame.channel as SmfSampleChannel, frame.bytes);
      }
    };
    send(now - 60_000, 60);
    await waitForTimer();
    const stateOf = () => service.states.find((state) => state.roomId === 'stall-1')?.state;
    expect(stateOf()).not.toBe('offline');

    // 20 s pass between two ticks (the process was stopped): longer than the offline delay.
    now += 20_000;
    await waitForTimer();
    expect(stateOf()).not.toBe('offline');
    // Its broker connection was closed meanwhile: the next frames it gets leave an 18-s gap it did not hear.
    send(now - 2_000, 2);
    await waitForTimer();
    expect(stateOf()).not.toBe('offline');
    await service.settled();
    expect(await store.query(system, { collection: 'alerts', where: [['roomId', '==', 'stall-1']], limit: 10 })).toEqual([]);

    // Running again and still nothing from the device: offline once its silence while running passes 6 s.
    for (let s = 0; s < 8; s++) {
      now += 1000;
      await waitForTimer();
    }
    expect(stateOf()).toBe('offline');
  });
});
