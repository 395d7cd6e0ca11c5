/**
 * `npm run bench:import`: import and analysis of a 24-hour SMF recording (ECG 250 Hz, acceleration
 * 3 × 50 Hz, temperature 1 Hz) of a simulated bed sensor, as the server does it: the file read from disk a
 * piece at a time in the import worker thread, replayed into sleep days, the frames grouped into stored
 * chunks. Prints the time and the peak memory (resident set of a process doing only the import), against
 * the goal of under 10 s and under 500 MB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParserSync } from '@nemuri/parser/node';
import { writeSmfRecording } from '../src/imports/testing.ts';

const GOAL_SECONDS = 10;
const GOAL_MB = 500;
const dir = join(tmpdir(), 'nemuri-bench-import');
const path = join(dir, 'NM-BENCH-0001_24h.smf');
const fromMs = Date.parse('2026-11-20T12:00:00+09:00');

if (process.argv[2] === '--child') {
  // The measured process: only the import, in its worker thread, as the server runs it.
  const { runImport } = await import('../src/imports/importRunner.ts');
  const started = performance.now();
  let chunks = 0;
  const result = await runImport(
    { path, format: 'smf', rule: { boundaryHour: 12, timeZone: 'Asia/Tokyo' }, source: 'bench', storeSignals: true },
    { chunk: () => chunks++ },
  );
  const seconds = (performance.now() - started) / 1000;
  const record = result.days[0]?.record;
  console.log(
    JSON.stringify({
      seconds,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      days: result.days.map((day) => day.day),
      chunks,
      timeInBedMin: record?.timeInBedMin,
      totalSleepMin: record?.totalSleepMin,
    }),
  );
  process.exit(0);
}

if (!existsSync(path)) {
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  process.stdout.write('writing a 24-hour recording (once; kept in the temporary folder)… ');
  await writeSmfRecording(createParserSync(), path, { serial: 'NM-BENCH-0001', fromMs, minutes: 24 * 60, seed: 'bench' });
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const size = statSync(path).size;
const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8' });
if (child.status !== 0) throw new Error(`the import failed: ${child.stderr}`);
const measured = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as {
  seconds: number;
  maxRssMb: number;
  days: string[];
  chunks: number;
  timeInBedMin: number;
  totalSleepMin: number;
};
console.log(
  `24-hour SMF recording: ${(size / 1024 ** 2).toFixed(1)} MB, ${measured.chunks} stored chunks, sleep days ${measured.days.join(', ')} (in bed ${measured.timeInBedMin} min, asleep ${measured.totalSleepMin} min)`,
);
console.log(`import and analysis: ${measured.seconds.toFixed(2)} s (goal < ${GOAL_SECONDS} s: ${(measured.seconds / GOAL_SECONDS).toFixed(2)} of it)`);
console.log(`peak memory: ${measured.maxRssMb.toFixed(0)} MB resident (goal < ${GOAL_MB} MB: ${(measured.maxRssMb / GOAL_MB).toFixed(2)} of it)`);
