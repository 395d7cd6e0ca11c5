/**
 * `npm run bench:monitoring`: the nurse station under load, in Chromium. 100 monitored rooms whose
 * devices stream every second (ECG, acceleration, impedance, rates, temperature, button: HTTP ingest,
 * each device with its own secret), the monitoring grid open in one tab (1920×1080, compact density:
 * every room on one screen) and `raw-ecg` and `raw-multi` in two more. For each tab: frames per second (animation frames counted in the page over the window)
 * and main-thread busy time (the DevTools protocol's TaskDuration over the same window).
 * Goals (issue 6): at least 55 frames/s, main thread busy under 50 %.
 *
 * `BENCH_TRACE=1` also records a Chromium performance trace of the grid's tab (DevTools protocol
 * Tracing, the events the Performance panel shows) over 5 s and prints where its main thread spent the
 * time: self time per kind of work (script, style, layout, paint, garbage collection…). With
 * `BENCH_TRACE=<file>` the trace is kept there, to open in the Performance panel.
 */
import { writeFileSync } from 'node:fs';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { buildWeb, webBuildIsStale } from '../../scripts/webBuild.mjs';
import { startLiveDevice, type LiveDevice } from '../support/liveDevice.ts';
import { startServer } from '../support/server.ts';

const ROOMS = 100;
const MEASURE_SECONDS = 15;
const FACILITY = 'demo-facility-a';

if (webBuildIsStale()) await buildWeb();
const server = await startServer({ env: { DATABASE_URL: 'memory://', DEMO: '1', NEMURI_DEMO_DATA: '1', AUTH_RATE_LIMIT_MAX: '10000', SIMULATE: '0' } });
const devices: LiveDevice[] = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});

async function api(email: string) {
  const context = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  const response = await context.request.post('/api/auth/sign-in/email', { data: { email, password: DEMO_PASSWORD } });
  if (!response.ok()) throw new Error(`sign-in of ${email}: ${response.status()}`);
  return context;
}

async function expectOk(response: { ok(): boolean; status(): number; text(): Promise<string> }, what: string): Promise<void> {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
}

/** Counts the tab's animation frames over `seconds` (as a page that animates asks for every frame). */
function countFrames(page: Page, seconds: number): Promise<number> {
  // A string, not a function: tsx would wrap a function's inner functions in a helper the page lacks.
  return page.evaluate(`new Promise((resolve) => {
    let count = 0;
    const end = performance.now() + ${seconds * 1000};
    const step = (time) => { count++; if (time < end) requestAnimationFrame(step); else resolve(count); };
    requestAnimationFrame(step);
  })`) as Promise<number>;
}

/** Frames per second and main-thread busy share of one tab over the measuring window. */
async function measure(page: Page, label: string): Promise<{ label: string; fps: number; busy: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((entry) => entry.name === 'TaskDuration')?.value ?? 0;
  };
  const busyBefore = await metric();
  const started = performance.now();
  const frames = await countFrames(page, MEASURE_SECONDS);
  const wall = (performance.now() - started) / 1000;
  const busy = (await metric()) - busyBefore;
  return { label, fps: frames / MEASURE_SECONDS, busy: busy / wall };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { frames?: { processId?: number; url?: string }[] } };
}

/** Reads the trace Chromium streams back after Tracing.end. */
async function readTrace(cdp: CDPSession, handle: string): Promise<TraceEvent[]> {
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/**
 * Self time (ms per second of trace) of each kind of work on the page's main thread: complete events
 * nested in one another, each one's time less that of the events inside it.
 */
function mainThreadSelfTimes(events: readonly TraceEvent[], seconds: number): [string, number][] {
  // The traced tab's renderer: the trace is the browser's, and headless Chromium keeps every tab running.
  const pid = events.find((event) => event.name === 'TracingStartedInBrowser')?.args?.data?.frames?.[0]?.processId;
  const main = events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && event.pid === pid);
  if (main === undefined) return [];
  const slices = events
    .filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && typeof event.dur === 'number')
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  for (const slice of slices) {
    const end = slice.ts + (slice.dur ?? 0);
    while (stack.length > 0 && (stack.at(-1)?.end ?? 0) <= slice.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent !== undefined) self.set(parent.name, (self.get(parent.name) ?? 0) - (slice.dur ?? 0));
    self.set(slice.name, (self.get(slice.name) ?? 0) + (slice.dur ?? 0));
    stack.push({ end, name: slice.name });
  }
  return [...self.entries()].map(([name, micros]): [string, number] => [name, micros / 1000 / seconds]).sort((a, b) => b[1] - a[1]);
}

/** Records the tab for `seconds` and prints its main thread's self times, the largest first. */
async function trace(page: Page, seconds: number, keep: string | null): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (event: { stream?: string }) => resolve(event.stream ?? '')));
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing'] },
  });
  // Asking for every frame, as while measuring: what each frame costs shows too.
  const frames = await countFrames(page, seconds);
  await cdp.send('Tracing.end');
  const events = await readTrace(cdp, await done);
  if (keep !== null) writeFileSync(keep, JSON.stringify({ traceEvents: events }));
  console.log(`main thread of the grid's tab over ${seconds} s, ${(frames / seconds).toFixed(1)} frames/s while traced (self time, ms per second):`);
  const selfTimes = mainThreadSelfTimes(events, seconds);
  console.log(
    `  ${'(all)'.padEnd(32)} ${selfTimes
      .reduce((sum, [, ms]) => sum + ms, 0)
      .toFixed(1)
      .padStart(6)}`,
  );
  for (const [name, ms] of selfTimes.slice(0, 12)) console.log(`  ${name.padEnd(32)} ${ms.toFixed(1).padStart(6)}`);
}

try {
  const developer = await api('developer@example.com');
  const admin = await api('admin@example.com');
  const existing = (await (await admin.request.post('/api/documents/query', { data: { query: { collection: 'rooms', limit: 500 } } })).json()) as {
    documents: { documentReferenceId: string; deviceSerial?: string }[];
  };
  const rooms = existing.documents
    .filter((room) => room.deviceSerial)
    .map((room) => ({ roomId: room.documentReferenceId, serial: room.deviceSerial as string, secret: undefined as string | undefined }));
  for (let i = rooms.length; i < ROOMS; i++) {
    const serial = `BENCH-${String(i).padStart(3, '0')}`;
    const roomId = `bench-${i}`;
    await expectOk(
      await developer.request.put(`/api/documents/devices/${serial}`, { data: { data: { deviceTypeId: 'nemuri-chest', domainId: FACILITY, status: 'lent' } } }),
      `device ${serial}`,
    );
    await expectOk(
      await admin.request.put(`/api/documents/rooms/${roomId}`, { data: { data: { domainId: FACILITY, name: `${300 + i}号室`, floor: '3F' } } }),
      `room ${roomId}`,
    );
    const registered = await admin.request.post(`/api/devices/${serial}/registration`, { data: { roomId } });
    await expectOk(registered, `registration of ${serial}`);
    rooms.push({ roomId, serial, secret: ((await registered.json()) as { secret: string }).secret });
  }
  for (const room of rooms)
    devices.push(
      startLiveDevice(server.url, room.serial, {
        backfillSeconds: 2,
        ...(room.secret ? { secret: room.secret } : {}),
        script: { presence: 'asleep', offline: false },
      }),
    );
  console.log(`${rooms.length} rooms streaming at 1 Hz (ECG 250 Hz, acceleration 3×50 Hz, impedance 50 Hz, rates, temperature, button)`);

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1920, height: 1080 }, locale: 'ja-JP', timezoneId: 'Asia/Tokyo' });
  // The station's compact density, as a station showing 100 rooms is set up (remembered per browser).
  await context.addInitScript("window.localStorage.setItem('nemuri.monitoring.density', 'compact')");
  await expectOk(
    await context.request.post('/api/auth/sign-in/email', { data: { email: 'admin@example.com', password: DEMO_PASSWORD }, headers: { origin: server.url } }),
    'browser sign-in',
  );
  const grid = await context.newPage();
  await grid.goto('/monitoring');
  await grid.getByText('リアルタイム更新中').waitFor({ timeout: 30_000 });
  const ecgSerial = rooms[0]?.serial as string;
  const ecg = await context.newPage();
  await ecg.goto(`/monitoring-device/raw-ecg?serial=${ecgSerial}`);
  const multi = await context.newPage();
  await multi.goto(`/monitoring-device/raw-multi?serial=${rooms[1]?.serial as string}`);
  // Let every tab fill its windows and the grid take all rooms.
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const tiles = await grid.getByTestId('room-card').count();
  // Tiles wholly inside the 1920×1080 window: all of them, in the compact density.
  const onScreen = await grid.evaluate(
    `[...document.querySelectorAll('[data-testid="room-card"]')].filter((tile) => { const r = tile.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }).length`,
  );

  const results = [];
  for (const [page, label] of [
    [grid, `/monitoring (${tiles} rooms, ${String(onScreen)} on screen)`],
    [ecg, '/monitoring-device/raw-ecg'],
    [multi, '/monitoring-device/raw-multi'],
  ] as const) {
    await page.bringToFront();
    results.push(await measure(page, label));
  }
  const traceTo = process.env.BENCH_TRACE;
  if (traceTo !== undefined && traceTo !== '' && traceTo !== '0') {
    await grid.bringToFront();
    await trace(grid, 5, traceTo === '1' ? null : traceTo);
  }
  for (const { label, fps, busy } of results) {
    console.log(
      `${label.padEnd(40)} ${fps.toFixed(1).padStart(5)} frames/s (goal ≥ 55: ${fps >= 55 ? 'met' : 'NOT met'})   main thread busy ${(busy * 100).toFixed(1).padStart(5)} % (goal < 50 %: ${busy < 0.5 ? 'met' : 'NOT met'})`,
    );
  }
  const failures = devices.flatMap((device) => device.failures);
  console.log(`ingest failures during the run: ${failures.length}${failures.length > 0 ? ` (first: ${failures[0]})` : ''}`);
} finally {
  await Promise.all(devices.map((device) => device.stop()));
  await browser.close();
  await server.stop();
}
