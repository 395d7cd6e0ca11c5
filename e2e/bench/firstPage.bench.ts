/**
 * First page on a throttled tablet (part of `npm run bench`): the sign-in page, signed out, no
 * service worker and an empty cache, in Chromium at 1024×768 with the CPU slowed 4× and DevTools'
 * "Fast 3G" network (562.5 ms latency, 180 kB/s down, 84 kB/s up), against the real server.
 * Interactive = the e-mail field is visible and enabled (the app has drawn its form and answers
 * input). Prints the median of RUNS cold loads, and the bytes transferred (compressed).
 * FIRST_PAGE_WATERFALL=1 also prints the first load's requests, to see its chain of round trips;
 * FIRST_PAGE_PROFILE=1 its main-thread time by script and function (a CPU profile until interactive).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT } from '../../scripts/webBuild.mjs';

const RUNS = 5;
const INITIAL_JS_GOAL_KB = 200;
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 };
const CPU_SLOWDOWN = 4;
const GOAL_MS = 3_000;

// The product as it ships: `npm start` (builds what is stale, then runs the built server).
const dataDir = mkdtempSync(join(tmpdir(), 'nemuri-first-page-'));
const child = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: ROOT,
  env: { ...process.env, HOST: '127.0.0.1', PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', DEMO: '0', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
const server = {
  url: await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ready line within 300 s:\n${output}`)), 300_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /ready at (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    });
    void exited.then(() => reject(new Error(`npm start ended before it was ready:\n${output}`)));
  }),
  async stop(): Promise<void> {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  },
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

interface LoadedRequest {
  url: string;
  started: number;
  /** When it left the browser: later than `started` while it waited for a free connection. */
  sent?: number;
  connection?: number;
  finished?: number;
  encoding?: string;
  bytes?: number;
}
type Cdp = Awaited<ReturnType<Awaited<ReturnType<typeof browser.newContext>>['newCDPSession']>>;

/** Every request of one load, by CDP's monotonic clock (seconds), to print the critical chain. */
function recordWaterfall(cdp: Cdp): Map<string, LoadedRequest> {
  const requests = new Map<string, LoadedRequest>();
  cdp.on('Network.requestWillBeSent', (event) => requests.set(event.requestId, { url: event.request.url, started: event.timestamp }));
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (request === undefined) return;
    request.encoding = String(event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding'] ?? '-');
    request.connection = event.response.connectionId;
    if (event.response.timing !== undefined) request.sent = event.response.timing.requestTime + event.response.timing.sendStart / 1000;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { finished: event.timestamp, bytes: event.encodedDataLength });
  });
  return requests;
}

/** The first run's requests: start and end (ms from the document request), bytes, encoding. */
function printWaterfall(requests: Map<string, LoadedRequest>, ready: number): void {
  const all = [...requests.values()];
  const origin = Math.min(...all.map((request) => request.started));
  const at = (time: number | undefined): string => (time === undefined ? '-' : String(Math.round((time - origin) * 1000))).padStart(6);
  console.log(`waterfall of the first load (interactive at ${ready} ms; asked, sent, done in ms from the document request; connection):`);
  for (const request of all.sort((a, b) => a.started - b.started)) {
    const kb = request.bytes === undefined ? '' : `${(request.bytes / 1024).toFixed(1)} kB`;
    console.log(
      `  ${at(request.started)} ${at(request.sent)} ${at(request.finished)} ${String(request.connection ?? '').padStart(4)} ${kb.padStart(9)} ${(request.encoding ?? '').padEnd(4)} ${request.url.replace(server.url, '')}`,
    );
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Main-thread time by script and by function (self time, ms, under the CPU slowdown). */
function printProfile(profile: CpuProfile): void {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = frameOf.get(id);
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const script = frame?.url ? frame.url.replace(server.url, '') : `(${frame?.functionName || 'program'})`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const name = `${frame?.functionName || '(anonymous)'} ${script}:${frame?.lineNumber ?? ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, count: number): string[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  console.log('main thread of the first load by script (self time):');
  console.log(top(byScript, 12).join('\n'));
  console.log('by function:');
  console.log(top(byFunction, 20).join('\n'));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  const interactive: number[] = [];
  const domReady: number[] = [];
  let transferred = 0;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, serviceWorkers: 'block', locale: 'ja-JP', hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => (bytes += event.encodedDataLength));
    const waterfall = run === 0 && process.env.FIRST_PAGE_WATERFALL === '1' ? recordWaterfall(cdp) : undefined;
    const profiling = run === 0 && process.env.FIRST_PAGE_PROFILE === '1';
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const started = Date.now();
    await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
    await page.locator('input[type="email"]').first().waitFor({ state: 'visible', timeout: 60_000 });
    const ready = Date.now() - started;
    if (!(await page.locator('input[type="email"]').first().isEnabled())) throw new Error('the e-mail field is not enabled');
    const dcl = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return navigation?.domContentLoadedEventEnd ?? Number.NaN;
    });
    if (profiling) printProfile((await cdp.send('Profiler.stop')).profile as CpuProfile);
    interactive.push(ready);
    if (waterfall !== undefined) printWaterfall(waterfall, ready);
    domReady.push(dcl);
    transferred = bytes;
    await context.close();
  }
  // What index.html loads before any lazy chunk (its module script and modulepreloads), gzip.
  const dist = join(ROOT, 'packages/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initialScripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
  const initialGzipKb = initialScripts.reduce((sum, asset) => sum + gzipSync(readFileSync(join(dist, asset)), { level: 9 }).length, 0) / 1024;
  console.log(
    `initial JavaScript of the first page: ${initialGzipKb.toFixed(1)} kB gzip in ${initialScripts.length} files; ` +
      `${initialGzipKb <= INITIAL_JS_GOAL_KB ? 'within' : 'OVER'} the ${INITIAL_JS_GOAL_KB} kB goal`,
  );
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const verdict = median(interactive) <= GOAL_MS ? 'within' : 'OVER';
  console.log(
    `first page (/login) on a throttled tablet (CPU ×${CPU_SLOWDOWN}, Fast 3G, 1024×768, cold): interactive ${seconds(median(interactive))} median of ${RUNS} ` +
      `(${interactive.map(seconds).join(', ')}), DOMContentLoaded ${seconds(median(domReady))}, ${(transferred / 1024).toFixed(1)} kB transferred; ${verdict} the ${seconds(GOAL_MS)} goal`,
  );
} finally {
  await browser.close();
  await server.stop();
}
