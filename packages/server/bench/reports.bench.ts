/**
 * `npm run bench:reports`: the sleep report PDF of 100 rooms × 31 days, as GET /api/reports/pdf
 * makes it: the server's thread hands each room's per-minute sleep records to a report thread as
 * they are read (reports/reportThreads.ts), a few records a message, which builds the reports
 * (buildRoomReport) and draws the PDF. Prints the time on the server's thread, the whole time, the
 * size and pages, the longest stall of the server's event loop meanwhile — the figure that says
 * whether other requests wait (the goal: under 100 ms) — the same for the reports only (GET
 * /api/reports/data: the JSON the endpoint sends, written in the report thread) and the per-minute
 * CSV, and how soon a cancelled PDF frees its thread. Every step the endpoint takes on the server's
 * thread is in the stall figures, up to the bytes it sends.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ReportRoom, SleepRecord } from '@nemuri/shared/report/roomReport';
import { daysOfPeriod } from '@nemuri/shared/report/period';
import { ReportThreads, type ReportJob, type RoomRecords } from '../src/reports/reportThreads.ts';

const ROOMS = 100;
const FROM = '2026-10-01';
const TO = '2026-10-31';
const RULE = { boundaryHour: 12, timeZone: 'Asia/Tokyo' };
const STALL_GOAL_MS = 100;

/** A deterministic night: in bed 22:00 for 8 hours of per-minute epochs, a few pauses and a trip out of bed. */
function night(day: string, seed: number): SleepRecord {
  const states = ['awake', 'light', 'deep', 'rem', 'light'] as const;
  const epochs: NonNullable<SleepRecord['epochs']> = Array.from({ length: 480 }, (_, minute) => {
    if (minute > 200 && minute < 210 + (seed % 7)) return { state: 'outOfBed' };
    const state = states[Math.floor((minute + seed) / 45) % states.length] ?? 'light';
    return {
      state,
      respirationRate: 13 + ((minute + seed) % 5),
      heartRate: 58 + ((minute * 7 + seed) % 11),
      activity: ((minute * 13 + seed) % 10) / 10,
      ...(minute % 97 === seed % 97 ? { pauses: 1 } : {}),
    };
  });
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    source: 'bench',
    epochStart: `${day}T22:00:00+09:00`,
    epochs,
    bedTime: `${day}T22:00:00+09:00`,
    sleepOnset: `${day}T22:1${seed % 10}:00+09:00`,
    finalWake: `${next}T05:4${seed % 10}:00+09:00`,
    outOfBedTime: `${next}T06:00:00+09:00`,
    timeInBedMin: 480,
    totalSleepMin: 400 + (seed % 40),
    sleepEfficiency: 83 + (seed % 10),
    respirationRate: { avg: 14.6, min: 11, max: 19 },
    heartRate: { avg: 62.4, min: 54, max: 80 },
  };
}

// What the database reads give the server's thread (not timed: bench:db measures the reads).
const rooms: RoomRecords[] = Array.from({ length: ROOMS }, (_, index) => {
  const room: ReportRoom = { id: `bench-${index}`, name: `${101 + index}号室`, floor: `${1 + Math.floor(index / 20)}F`, residentName: `入居者 ${index + 1}` };
  return { room, sleeps: new Map(daysOfPeriod(FROM, TO).map((day, dayIndex) => [day, night(day, index * 31 + dayIndex)] as const)), rule: RULE };
});

const threads = new ReportThreads(1);

/** One job as the endpoint runs it: a room handed over, then a turn of the event loop (the next room's reads). */
async function handOver(keepSleeps = false) {
  const job = await threads.open(FROM, TO);
  let handOverMs = 0;
  for (const records of rooms) {
    const at = performance.now();
    await job.add(records, keepSleeps);
    handOverMs += performance.now() - at;
    await nextTurn();
  }
  return { job, handOverMs };
}

async function run<T>(finish: (job: ReportJob) => Promise<T>, keepSleeps = false) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const { job, handOverMs } = await handOver(keepSleeps);
  const result = await finish(job);
  const totalMs = performance.now() - started;
  delay.disable();
  return { result, handOverMs, totalMs, stallMs: delay.max / 1e6 };
}

/** Ms from cancelling a PDF mid-drawing until the next job has a thread. */
async function cancelled(afterMs: number): Promise<number> {
  const { job } = await handOver();
  const drawing = job.pdf('2026/11/01 09:00').catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  const cancelledAt = performance.now();
  job.cancel();
  await drawing;
  const next = await threads.open(FROM, TO);
  const freedMs = performance.now() - cancelledAt;
  next.cancel();
  return freedMs;
}

// A first small report starts the worker and loads the fonts: the server has them warm.
{
  const job = await threads.open(FROM, TO);
  await job.add(rooms[0] as RoomRecords);
  await job.pdf('2026/11/01 09:00');
}
// The machine's own stall: the event loop with nothing to do, for as long as a report takes. On a
// shared, overloaded machine the process waits for a core too, and that is in every figure below.
const idle = await (async () => {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  delay.disable();
  return delay.max / 1e6;
})();
console.log(`event loop idle for 5 s: longest stall ${idle.toFixed(0)} ms (the machine's share; load average ${loadavg()[0]?.toFixed(1)})`);
const data = await run((job) => job.json());
const csv = await run((job) => job.csv('epochs', 'sjis'), true);
const pdfRun = await run((job) => job.pdf('2026/11/01 09:00'));
const pdf = pdfRun.result;
const freedMs = await cancelled(1000);
await threads.stop();

const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
const verdict = (ms: number) => `${ms.toFixed(0)} ms (goal < ${STALL_GOAL_MS} ms) ${ms < STALL_GOAL_MS ? 'OK' : 'OVER'}`;
console.log(
  `reports of ${ROOMS} rooms × 31 days (GET /api/reports/data): ${(data.totalMs / 1000).toFixed(2)} s, ${(data.result.length / 1024 / 1024).toFixed(1)} MB of JSON; ${data.handOverMs.toFixed(0)} ms handing rooms over (the server's thread serving others between records); longest stall ${verdict(data.stallMs)}`,
);
console.log(
  `per-minute CSV in Shift_JIS (GET /api/reports/csv?kind=epochs): ${(csv.totalMs / 1000).toFixed(2)} s, ${(csv.result.length / 1024 / 1024).toFixed(1)} MB; longest stall ${verdict(csv.stallMs)}`,
);
console.log(
  `PDF (GET /api/reports/pdf): built and drawn in ${(pdfRun.totalMs / 1000).toFixed(2)} s in the report thread, ${pdfRun.handOverMs.toFixed(0)} ms handing rooms over; ${(pdf.length / 1024 / 1024).toFixed(1)} MB, ${pages} pages; longest stall ${verdict(pdfRun.stallMs)}`,
);
console.log(`PDF cancelled after 1 s of drawing: its thread stopped and the next job started ${freedMs.toFixed(0)} ms after the cancel`);
