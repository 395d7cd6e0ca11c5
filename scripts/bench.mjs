// `npm run bench`: the figures the foundation promises, measured on this machine.
//  - at the end, fair sharing between tenants (packages/server/bench/fairness.bench.ts);
//  - then the analysis against annotated recordings: QRS detection scored as ANSI/AAMI EC57 and the live
//    heart rate against the reference beats (packages/analysis/bench/accuracy.bench.ts, `npm run bench:accuracy`);
//  - initial JavaScript of the first page (what index.html loads before any lazy route), gzip;
//  - the first page on a throttled tablet profile, CPU ×4 and Fast 3G (e2e/bench/firstPage.bench.ts);
//  - `npm start` time from process start to the ready line, on a new and on an existing data dir.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, ROOT, webBuildIsStale } from './webBuild.mjs';

if (webBuildIsStale()) await buildWeb();
const dist = join(ROOT, 'packages/web/dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
let jsRaw = 0;
let jsGzip = 0;
let cssGzip = 0;
for (const asset of initial) {
  const bytes = readFileSync(join(dist, asset));
  if (asset.endsWith('.js')) {
    jsRaw += bytes.length;
    jsGzip += gzipSync(bytes, { level: 9 }).length;
  } else cssGzip += gzipSync(bytes, { level: 9 }).length;
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
console.log(
  `initial JavaScript: ${kb(jsRaw)} raw, ${kb(jsGzip)} gzip in ${initial.filter((a) => a.endsWith('.js')).length} files; initial CSS ${kb(cssGzip)} gzip`,
);

function timeToReady(dataDir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', DEMO: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const onData = (chunk) => {
      log += chunk;
      if (/ready at http/.test(log)) {
        const ms = performance.now() - started;
        child.kill('SIGTERM');
        child.once('exit', () => resolve(ms));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (!/ready at http/.test(log)) reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
}

// The first page on a throttled tablet (CPU ×4, Fast 3G): e2e/bench/firstPage.bench.ts.
await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'e2e/bench/firstPage.bench.ts'], { cwd: ROOT, stdio: 'inherit' });
  child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`first-page bench exited with ${code}`))));
});

const dataDir = mkdtempSync(join(tmpdir(), 'nemuri-bench-'));
try {
  const fresh = await timeToReady(dataDir);
  const again = await timeToReady(dataDir);
  console.log(`npm start to ready (embedded PGlite): new data dir ${(fresh / 1000).toFixed(2)} s, existing data dir ${(again / 1000).toFixed(2)} s`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

// Fair sharing: tenant B's read latency while tenant A runs the heaviest allowed load, on PostgreSQL
// (when TEST_DATABASE_URL answers) and PGlite (packages/server/bench/fairness.bench.ts).
await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/bench/fairness.bench.ts'], { cwd: ROOT, stdio: 'inherit' });
  child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fairness bench exited with ${code}`))));
});

// Signal accuracy on the annotated MIT-BIH records (packages/analysis/bench/accuracy.bench.ts).
await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/analysis/bench/accuracy.bench.ts'], { cwd: ROOT, stdio: 'inherit' });
  child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`accuracy bench exited with ${code}`))));
});
