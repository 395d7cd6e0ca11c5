/**
 * Late and jittered delivery in the browser (issue 18): devices whose frames reach the server 3 s late,
 * 8 s late, 2–8 s late at random, or 14 s late. The nurse-station grid shows the first three rooms'
 * states without a false 通信なし and without flicker, and the last 遅延 (never 通信なし) while its data
 * still flows. The devices send through HTTP ingest with their own secrets, as real devices do; the
 * rooms are four of facility A's that no other browser test streams to.
 */
import { createParserSync } from '@nemuri/parser/node';
import { DeviceSimulator, demoSecret, encodeSecond, SequenceCounters, type ScenarioState } from '@nemuri/simulator/index';
import type { LiveRoomState } from '@nemuri/shared/monitoring';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { useBrowserTab } from './support/browser.ts';
import { signInByApi } from './support/session.ts';

const baseURL = inject('baseURL');
const tab = useBrowserTab(baseURL);

class InBed extends DeviceSimulator {
  override stateAt(timeMs: number): ScenarioState {
    return { ...super.stateAt(timeMs), presence: 'asleep', offline: false, apnea: false, moving: false, buttonPressed: false };
  }
}

interface LateDevice {
  stop(): Promise<void>;
  readonly failures: string[];
}

/**
 * Sends each second of the device once `lag()` ms have passed after it ended, in order (a second never
 * overtakes the one before, as on one connection), starting `pastSeconds` ago.
 */
function startLateDevice(serial: string, lag: () => number, pastSeconds = 40): LateDevice {
  const parser = createParserSync();
  const device = new InBed({ serial, seed: `e2e-late-${serial}` });
  const sequences = new SequenceCounters();
  const failures: string[] = [];
  let next = Math.floor(Date.now() / 1000) * 1000 - pastSeconds * 1000;
  let due = next + 1000 + lag();
  let stopped = false;
  let sending: Promise<void> = Promise.resolve();
  const send = async () => {
    const chunks: Uint8Array[] = [];
    while (due <= Date.now()) {
      const second = device.generate(next);
      if (second !== null)
        for (const frame of encodeSecond(parser, second, sequences, ['ecg', 'respiAxl', 'impe', 'respiHr', 'temperature', 'button'])) chunks.push(frame.bytes);
      next += 1000;
      due = Math.max(due, next + 1000 + lag());
    }
    if (chunks.length === 0) return;
    const response = await fetch(`${baseURL}/api/devices/${serial}/frames`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoSecret(serial)}`, 'content-type': 'application/octet-stream' },
      body: Buffer.concat(chunks),
    });
    if (response.status !== 202) failures.push(`${response.status} ${await response.text()}`);
  };
  const timer = setInterval(() => {
    if (!stopped) sending = sending.then(send).catch((error: unknown) => void failures.push(String(error)));
  }, 100);
  return {
    failures,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await sending;
    },
  };
}

const ROOMS = { late3: 'demo-a-204', late8: 'demo-a-207', jitter: 'demo-a-205', late14: 'demo-a-206' } as const;
const IN_BED = new Set(['awake', 'asleep']);

describe('late and jittered delivery on the nurse-station grid', () => {
  const devices: LateDevice[] = [];
  afterAll(async () => {
    await Promise.all(devices.map((device) => device.stop()));
    for (const device of devices) expect(device.failures).toEqual([]);
  });

  it('shows 3 s, 8 s and 2–8 s late rooms without false 通信なし or flicker, and a 14 s late room as 遅延', { timeout: 180_000 }, async () => {
    const { page, context } = tab;
    await signInByApi(context, baseURL, 'admin@example.com');
    await page.goto('/monitoring');
    await page.getByTestId('monitoring-grid').locator(`[data-room="${ROOMS.late3}"]`).waitFor({ timeout: 30_000 });
    await page.getByText('リアルタイム更新中').waitFor({ timeout: 15_000 });
    // Every state each tile shows, in order.
    await page.evaluate((rooms) => {
      const seen: Record<string, string[]> = {};
      (window as unknown as { __tiles: typeof seen }).__tiles = seen;
      const scan = () => {
        for (const room of rooms) {
          const state = document.querySelector<HTMLElement>(`[data-testid="monitoring-grid"] [data-room="${room}"] [data-state]`)?.dataset.state;
          const list = (seen[room] ??= []);
          if (state !== undefined && list.at(-1) !== state) list.push(state);
        }
      };
      new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
      scan();
    }, Object.values(ROOMS));

    const serialOf = async (roomId: string) =>
      ((await (await context.request.get(`${baseURL}/api/documents/rooms/${roomId}`)).json()) as { document: { deviceSerial: string } }).document.deviceSerial;
    let random = 18;
    const jitter = () => {
      // A small seeded generator: the same delays on every run.
      random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
      return 2_000 + (random / 2_147_483_648) * 6_000;
    };
    devices.push(startLateDevice(await serialOf(ROOMS.late3), () => 3_000));
    devices.push(startLateDevice(await serialOf(ROOMS.late8), () => 8_000));
    devices.push(startLateDevice(await serialOf(ROOMS.jitter), jitter));
    devices.push(startLateDevice(await serialOf(ROOMS.late14), () => 14_000));

    const tiles = () => page.evaluate(() => (window as unknown as { __tiles: Record<string, string[]> }).__tiles);
    const roomStates = async () => ((await (await context.request.get(`${baseURL}/api/monitoring/rooms`)).json()) as { rooms: LiveRoomState[] }).rooms;
    // Settled: the three rooms in bed, the 14 s room late.
    const inBed = (shown: Record<string, string[]>) => [ROOMS.late3, ROOMS.late8, ROOMS.jitter].every((room) => IN_BED.has(shown[room]?.at(-1) ?? ''));
    await expect.poll(async () => inBed(await tiles()), { timeout: 60_000, interval: 500 }).toBe(true);
    await expect.poll(async () => (await tiles())[ROOMS.late14]?.at(-1), { timeout: 30_000, interval: 500 }).toBe('late');
    const settled = await tiles();
    const from = {
      late3: settled[ROOMS.late3]!.length - 1,
      late8: settled[ROOMS.late8]!.length - 1,
      jitter: settled[ROOMS.jitter]!.length - 1,
      late14: settled[ROOMS.late14]!.length - 1,
    };

    // A minute of late and jittered delivery.
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const after = await tiles();
    for (const key of ['late3', 'late8', 'jitter'] as const) {
      const shown = after[ROOMS[key]]!.slice(from[key]);
      expect(
        shown.filter((state) => !IN_BED.has(state)),
        `${key}: nothing but in-bed states`,
      ).toEqual([]);
      // In bed and still: at most the one change from awake to asleep.
      expect(shown.length, `${key}: ${shown.join(' → ')}`).toBeLessThanOrEqual(2);
    }
    expect(after[ROOMS.late14]!.slice(from.late14), 'the 14 s late room stays 遅延').toEqual(['late']);
    // 通信なし only before its first data arrived.
    expect(after[ROOMS.late14]!.slice(after[ROOMS.late14]!.indexOf('late'))).not.toContain('offline');
    await page.locator(`[data-testid="monitoring-grid"] [data-room="${ROOMS.late14}"]`).getByText('遅延').waitFor();

    // The server's view: computed on the devices' time.
    const states = new Map((await roomStates()).map((room) => [room.roomId, room]));
    const lagOf = (roomId: string) => (states.get(roomId)?.at ?? 0) - (states.get(roomId)?.dataAt ?? 0);
    expect(lagOf(ROOMS.late3)).toBeLessThan(5_000);
    expect(lagOf(ROOMS.late8)).toBeGreaterThan(7_000);
    expect(lagOf(ROOMS.late8)).toBeLessThan(12_000);
    expect(lagOf(ROOMS.late14)).toBeGreaterThan(13_000);
  });
});
