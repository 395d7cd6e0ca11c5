/**
 * Worker thread of the reports (reportThreads.ts): builds each room's report as its records arrive
 * (buildRoomReport, ~30 ms a month of a room) and, at the end, either draws the PDF (pdfkit lays out
 * and compresses the pages synchronously, tens to hundreds of milliseconds a room), or writes the
 * reports' JSON or CSV, and moves the bytes to the server's thread. In the server's thread any of
 * these would hold up every other tenant's requests. The fonts are read once per thread.
 */
import { parentPort } from 'node:worker_threads';
import { buildRoomReport, type RoomReport, type SleepRecord } from '@nemuri/shared/report/roomReport';
import { encodeCsv } from '../http/csvDownload.ts';
import { unpackSleeps } from './epochColumns.ts';
import { csvText } from './reportCsv.ts';
import { reportPdf } from './reportPdf.ts';
import type { WorkerReply, WorkerRequest } from './reportThreads.ts';

const port = parentPort;
if (port === null) throw new Error('reportWorkerMain.ts runs as a worker thread (reportWorker.mjs)');

let job = 0;
let reports: RoomReport[] = [];
/** Per report, its records when kept for a per-minute CSV. */
let keptSleeps: ReadonlyMap<string, SleepRecord>[] = [];
/** The records of the room under way (its `room` message comes after them). */
let roomSleeps = new Map<string, SleepRecord>();
let failure: string | null = null;

const reply = (message: WorkerReply) => port.postMessage(message);

/** Replies with bytes moved to the server's thread, not copied (a copy when they share a larger buffer). */
const replyBytes = (job: number, output: 'pdf' | 'json' | 'csv', data: Uint8Array): void => {
  const bytes = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : new Uint8Array(data);
  port.postMessage({ job, ok: true, output, bytes } satisfies WorkerReply, [bytes.buffer as ArrayBuffer]);
};

port.on('message', (request: WorkerRequest) => {
  if (request.job !== job) {
    // A new job: whatever an earlier one left is forgotten.
    job = request.job;
    reports = [];
    keptSleeps = [];
    roomSleeps = new Map();
    failure = null;
  }
  if (request.type === 'drop') {
    reports = [];
    keptSleeps = [];
    roomSleeps = new Map();
    return;
  }
  if (request.type === 'sleeps') {
    if (failure === null) for (const [day, record] of unpackSleeps(request.sleeps)) roomSleeps.set(day, record);
    return;
  }
  if (request.type === 'room') {
    const sleeps = roomSleeps;
    roomSleeps = new Map();
    if (failure !== null) return;
    try {
      reports.push(buildRoomReport(request.room, sleeps, request.from, request.to, request.rule));
      keptSleeps.push(request.keepSleeps ? sleeps : new Map());
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    return;
  }
  const built = reports;
  const sleepsOfBuilt = keptSleeps;
  reports = [];
  keptSleeps = [];
  if (failure !== null) {
    reply({ job: request.job, ok: false, message: failure });
    return;
  }
  if (request.output === 'reports') {
    reply({ job: request.job, ok: true, output: 'reports', reports: built });
    return;
  }
  if (request.output === 'json') {
    replyBytes(request.job, 'json', Buffer.from(JSON.stringify({ reports: built }), 'utf8'));
    return;
  }
  if (request.output === 'csv') {
    try {
      const loaded = built.map((report, index) => ({ report, sleeps: sleepsOfBuilt[index] ?? new Map<string, SleepRecord>() }));
      replyBytes(request.job, 'csv', encodeCsv(csvText(loaded, request.kind), request.encoding));
    } catch (error) {
      reply({ job: request.job, ok: false, message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  reportPdf(built, request.generatedAt).then(
    (pdf) => replyBytes(request.job, 'pdf', new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength)),
    (error: unknown) => reply({ job: request.job, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
