/**
 * The room-state service wired to real parts: simulated frames through the live hub, rooms and
 * domains from the document store (PGlite), alerts stored as records, acknowledgement by update,
 * and sounding again. Time is the test's: the service is ticked by hand.
 */
import { loadParser } from '@nemuri/parser/node';
import type { Parser } from '@nemuri/parser/parser';
import type { SmfSampleChannel } from '@nemuri/parser/smf';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { DeviceSimulator, encodeSecond, SequenceCounters } from '@nemuri/simulator/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { DocumentStore } from '../documents/store.ts';
import { LiveHub } from '../signals/liveHub.ts';
import { RoomStateService } from './roomStateService.ts';

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
    (await store.query(system, { collection: 'alerts', where: [['roomId', '==', roomId]], orderBy: [['startedAt']], limit: 100 })) as { documentReferenceId: string; type: string; endedAt?: string | null; acknowledgedAt?: string | null }[];
  const settle = () => service.settled();

  beforeAll(async () => {
    parser = await loadParser();
    database = await openPglite(null);
    await migrate(database);
    store = new DocumentStore(database, silent);
    await store.set(system, 'domains/mon', { name: '監視施設', kind: 'facility', numbers: { deviceOfflineMin: 0.1 } }, false);
    await store.set(system, 'rooms/mon-1', { domainId: 'mon', name: '101号室', deviceSerial: 'MON-1' }, false);
    await store.set(system, 'rooms/mon-2', { domainId: 'mon', name: '102号室', deviceSerial: 'MON-2' }, false);
    await store.set(system, 'rooms/mon-3', { domainId: 'mon', name: '103号室' }, false);
    hub = new LiveHub();
    service = new RoomStateService({ database, hub, log: silent, tickMs: 3_600_000, resoundAfterSec: 30, now: () => now });
    await service.start();
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await database?.close();
  });

  it('gives every room with a device a state, from that device\'s frames', async () => {
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

  it('opens a device-offline alert after the domain\'s minutes, and ends it when frames come back', async () => {
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
      acknowledgedAt: new Date(now).toISOString(),
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
      const service = new RoomStateService({ database, hub, log: silent, tickMs: 3_600_000, now: () => now });
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
