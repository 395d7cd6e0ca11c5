/**
 * Room states with two server processes sharing one Mosquitto (MQTT_SHARED_GROUP) and one PostgreSQL
 * (docs/scaling.md, "Room states with several processes"): the shared subscription spreads a device's
 * messages over both, yet its room state is computed by one of them from every second, both
 * processes' monitoring endpoints show it, its alert is opened once, and when that process stops the
 * other takes the device over.
 */
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { loadParser } from '@nemuri/parser/node';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { MONITORING_ROOMS_PATH, type LiveRoomState } from '@nemuri/shared/monitoring';
import { DeviceSimulator, encodeSecondMulti, SequenceCounters } from '@nemuri/simulator/index';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { registerDevice, signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';
import { MOSQUITTO_BINARY, PrivateMosquitto } from '../testing/privateMosquitto.ts';
import { SKIP_POSTGRES, createTestSchema } from '../testing/postgres.ts';
import type { BrowserClient } from '../testing/browserClient.ts';
import { until } from '../testing/until.ts';
import { makeTempDir } from '../testing/webDist.ts';

/** The simulated night's 20:00 in Tokyo: scenario seconds count from it. */
const NIGHT_ORIGIN = Date.parse('2026-11-20T20:00:00+09:00');
/** A night (seed 52) whose resident lies still in bed around a 40-second apnea. */
const SEED = 52;
const STATE_CHANNELS = ['ecg', 'respiAxl', 'impe', 'respiHr', 'temperature', 'button'] as const;
const BREATHING = ['asleep', 'awake', 'sittingUp'];
/** Seconds of the night sent before the apnea, and after it. */
const BEFORE_APNEA = 60;
const AFTER_APNEA = 50;
/** A stopped process's devices are computed by another within this long. */
const HANDOVER_BOUND_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(SKIP_POSTGRES || MOSQUITTO_BINARY === null)('room states with two server processes on one Mosquitto and PostgreSQL', () => {
  it('are computed by one process from every second, shown by both, alert once, and move to the other when it stops', { timeout: 240_000 }, async () => {
    const mosquitto = await PrivateMosquitto.start();
    const schema = await createTestSchema();
    const dir = await makeTempDir('nemuri-shared-states-');
    const env = { MQTT_URL: mosquitto.url, MQTT_SHARED_GROUP: 'states', DATABASE_URL: schema.url };
    const servers: IngestTestServer[] = [];
    let device: mqtt.MqttClient | undefined;
    let stopStreaming = false;
    let streaming: Promise<void> = Promise.resolve();
    try {
      servers.push(await startIngestServer(env, dir.path));
      servers.push(await startIngestServer(env, dir.path));
      const [first, second] = servers as [IngestTestServer, IngestTestServer];
      const serial = uniqueSerial('shared-room');
      const app = first.server.app;
      await registerDevice(first.server, serial, 'unused-with-mosquitto', DEMO_DOMAINS.facilityA);
      // The demo accounts' facility (its records are not written on PostgreSQL), alerting after 5 s without breathing.
      await app.documents.set(
        SYSTEM_PRINCIPAL,
        `domains/${DEMO_DOMAINS.facilityA}`,
        { name: '共有施設', kind: 'facility', numbers: { noBreathingAlertSec: 5 } },
        true,
      );
      const roomId = `shared-${serial}`;
      await app.documents.set(SYSTEM_PRINCIPAL, `rooms/${roomId}`, { domainId: DEMO_DOMAINS.facilityA, name: '共有室', deviceSerial: serial }, false);
      const browsers = await Promise.all(servers.map((server) => signedInClient(server.server, 'staff@example.com')));

      // Each process knows both (their retained announcements) and both know the room: one computes it.
      const owner = await until('one owner of the device', 15_000, async () => {
        const computing = servers.filter((server) => server.server.app.monitoring.computes(serial));
        const known = servers.every((server) => server.server.app.monitoring.directory.roomOf(serial) !== undefined);
        return known && computing.length === 1 ? computing[0] : undefined;
      });
      const other = owner === first ? second : first;

      const roomOn = async (browser: BrowserClient): Promise<LiveRoomState | undefined> => {
        const reply = await browser.get(MONITORING_ROOMS_PATH);
        expect(reply.status).toBe(200);
        return (reply.body as { rooms: LiveRoomState[] }).rooms.find((room) => room.roomId === roomId);
      };
      const bothRead = (what: string, timeoutMs: number, holds: (state: LiveRoomState) => boolean) =>
        until(what, timeoutMs, async () => {
          const states = await Promise.all(browsers.map(roomOn));
          return states.every((state) => state !== undefined && holds(state)) ? (states as LiveRoomState[]) : undefined;
        });

      // The device streams its night from a minute before the apnea, in real time once caught up.
      const parser = await loadParser();
      const simulator = new DeviceSimulator({ serial: 'SHARED-ROOM', seed: SEED });
      const { apnea } = simulator.timeline;
      const seconds = BEFORE_APNEA + (apnea.end - apnea.start) + AFTER_APNEA;
      // The apnea begins 20 s after the test starts streaming.
      const deviceStart = Date.now() - (BEFORE_APNEA - 20) * 1000;
      device = await mqtt.connectAsync(mosquitto.url, { protocolVersion: 4, clientId: serial, clean: true, reconnectPeriod: 0 });
      const sequences = new SequenceCounters();
      streaming = (async () => {
        for (let k = 0; k < seconds && !stopStreaming; k++) {
          const at = deviceStart + k * 1000;
          while (at > Date.now() + 500 && !stopStreaming) await sleep(50);
          const second = simulator.generate(NIGHT_ORIGIN + (apnea.start - BEFORE_APNEA + k) * 1000, { eit: false });
          if (second === null) continue;
          const { bytes } = encodeSecondMulti(parser, { ...second, startTimeMs: at }, sequences, STATE_CHANNELS);
          await device!.publishAsync(`devices/${serial}/frames`, Buffer.from(bytes), { qos: 1 });
        }
      })();
      const apneaStart = deviceStart + BEFORE_APNEA * 1000;
      const apneaEnd = apneaStart + (apnea.end - apnea.start) * 1000;

      // Breathing: both processes show the owner's state, rates included.
      const breathing = await bothRead('a breathing state on both processes', 30_000, (state) => BREATHING.includes(state.state));
      expect(Date.now()).toBeLessThan(apneaStart);
      expect(breathing[0]!.respirationRate).not.toBeNull();
      // The same estimate, a second apart at most (each process reads its own tick).
      expect(breathing[1]!.respirationRate).toBeCloseTo(breathing[0]!.respirationRate!, 0);
      // Storage by owner (ingest/deviceShares.ts): the owner holds the device's share and takes its
      // messages; the other process, with no viewer of the device, takes none of them.
      expect(owner!.server.deviceBroker.shares?.holds(serial)).toBe(true);
      expect(other.server.deviceBroker.shares?.holds(serial)).toBe(false);
      expect(owner!.server.app.ingest.stats.messages).toBeGreaterThan(0);
      const otherTook = other.server.app.ingest.stats.messages;
      await sleep(2_000);
      expect(other.server.app.ingest.stats.messages).toBe(otherTook);

      // The apnea: no breathing on both, then breathing again; its alert was opened once and has ended.
      await bothRead('no breathing on both processes', apneaEnd - Date.now() + 5_000, (state) => state.state === 'noBreathing');
      await bothRead('breathing again on both processes', Math.max(0, apneaEnd - Date.now()) + 30_000, (state) => BREATHING.includes(state.state));
      const noBreathingAlerts = async () =>
        // Read through the process that stays.
        (await other.server.app.documents.query(SYSTEM_PRINCIPAL, { collection: 'alerts', where: [['roomId', '==', roomId]], limit: 100 })) as {
          type: string;
          endedAt: string | null;
        }[];
      await until('the no-breathing alert ended', 15_000, async () => {
        const alerts = await noBreathingAlerts();
        return alerts.some((alert) => alert.type === 'noBreathing' && (alert.endedAt ?? '') !== '') ? true : undefined;
      });
      expect((await noBreathingAlerts()).filter((alert) => alert.type === 'noBreathing')).toHaveLength(1);

      // The owner stops: the other process takes the device over and computes its state from its frames.
      const stoppedAt = Date.now();
      await owner.stop();
      servers.splice(servers.indexOf(owner), 1);
      const survivor = browsers[owner === first ? 1 : 0]!;
      const takenOver = await until('the other process computing the room', HANDOVER_BOUND_MS, async () => {
        if (!other.server.app.monitoring.computes(serial)) return undefined;
        const state = await roomOn(survivor);
        return state !== undefined && BREATHING.includes(state.state) && (state.dataAt ?? 0) > stoppedAt ? state : undefined;
      });
      expect(takenOver.respirationRate).not.toBeNull();
      expect(Date.now() - stoppedAt).toBeLessThan(HANDOVER_BOUND_MS);
      stopStreaming = true;
      await streaming;
      // Taken over without alerts of its own: no second no-breathing alert, no offline alert.
      await other.server.app.monitoring.settled();
      const alerts = await noBreathingAlerts();
      expect(alerts.filter((alert) => alert.type === 'noBreathing')).toHaveLength(1);
      expect(alerts.filter((alert) => alert.type === 'deviceOffline')).toHaveLength(0);
    } finally {
      stopStreaming = true;
      await streaming.catch(() => undefined);
      await device?.endAsync(true);
      for (const server of servers) await server.stop();
      await schema.drop();
      await dir.remove();
      await mosquitto.destroy();
    }
  });
});
