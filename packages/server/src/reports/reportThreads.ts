/**
 * Report threads: the reports (buildRoomReport) are built and their PDFs drawn in worker threads
 * (reportWorkerMain.ts), at most REPORT_THREADS at once per process. Both are CPU-bound — a month
 * of 100 rooms took 2.8 s to build and 10 s to draw — and on the server's thread they stopped every
 * request of every tenant meanwhile. The server's thread only reads the records, and hands each
 * over as soon as it is read, a record per message and a turn of the event loop between them, its
 * epochs as typed arrays (epochColumns.ts): a whole report in one message, or epochs as objects,
 * would stall the thread while they are copied. What goes back to the browser comes back as the
 * bytes to send (the JSON of the screen's reports, the CSV, the PDF), made in the report thread
 * and moved, not copied: deserialising a month of 100 rooms' reports and serialising them again to
 * JSON took the server's thread 0.1–1.4 s in one piece.
 *
 * A request takes a thread for its whole job (`open`), further requests wait here in order; the
 * fair-share limits (http/fairShare.ts) keep one tenant from filling that queue. A job cancelled
 * (the browser gave up) leaves the queue, or stops its thread mid-drawing (pdfkit cannot be
 * interrupted otherwise) and a new thread replaces it. Threads start on the first job and stay
 * (the fonts are read once each); they do not keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { ReportRoom, RoomReport, SleepRecord } from '@nemuri/shared/report/roomReport';
import type { CsvEncoding, CsvKind } from '@nemuri/shared/report/reportApi';
import type { ReportDayRule } from '@nemuri/shared/report/sleepDayClock';
import { packSleeps, transferables, type PackedSleeps } from './epochColumns.ts';

/** Threads building reports at once: one core is left to the server's thread and the database. */
export const REPORT_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

/** The error of a job whose request went away (its signal's reason). */
export class ReportCancelled extends Error {
  constructor() {
    super('the report was cancelled');
    this.name = 'ReportCancelled';
  }
}

/** One room's records and how its days are counted, as the server's thread read them. */
export interface RoomRecords {
  room: ReportRoom;
  sleeps: ReadonlyMap<string, SleepRecord>;
  rule: ReportDayRule;
}

export type WorkerRequest =
  /** A room's records, a few at a time; its `room` message follows them. */
  | { type: 'sleeps'; job: number; sleeps: PackedSleeps }
  /** The room whose records came since the last room: build its report (keep its records for a per-minute CSV). */
  | { type: 'room'; job: number; room: ReportRoom; from: string; to: string; rule: ReportDayRule; keepSleeps: boolean }
  | { type: 'finish'; job: number; output: 'pdf'; generatedAt: string }
  | { type: 'finish'; job: number; output: 'reports' }
  | { type: 'finish'; job: number; output: 'json' }
  | { type: 'finish'; job: number; output: 'csv'; kind: CsvKind; encoding: CsvEncoding }
  | { type: 'drop'; job: number };

export type WorkerReply =
  | { job: number; ok: true; output: 'pdf' | 'json' | 'csv'; bytes: Uint8Array }
  | { job: number; ok: true; output: 'reports'; reports: RoomReport[] }
  | { job: number; ok: false; message: string };

/** Records handed over per message: a turn of the server's event loop comes between two messages. */
const RECORDS_PER_MESSAGE = 4;

const WORKER_URL = new URL('./reportWorker.mjs', import.meta.url);

interface Pending {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

class ReportThread {
  readonly #worker: Worker;
  #pending: Pending | null = null;
  /** Whether a job holds the thread. */
  busy = false;
  failed: Error | null = null;

  constructor() {
    this.#worker = new Worker(WORKER_URL);
    this.#worker.unref();
    this.#worker.on('message', (reply: WorkerReply) => {
      const pending = this.#pending;
      this.#pending = null;
      pending?.resolve(reply);
    });
    const fail = (error: Error) => {
      // A thread stopped on purpose answers with the reason it was stopped for (ReportCancelled).
      this.failed ??= error;
      this.#pending?.reject(this.failed);
      this.#pending = null;
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the report thread stopped (exit code ${code})`)));
  }

  post(message: WorkerRequest, transfer: ArrayBuffer[] = []): void {
    if (this.failed !== null) throw this.failed;
    this.#worker.postMessage(message, transfer);
  }

  /** Posts the job's last message and waits for its one answer. */
  finish(message: WorkerRequest & { type: 'finish' }): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      if (this.failed !== null) {
        reject(this.failed);
        return;
      }
      this.#pending = { resolve, reject };
      this.#worker.postMessage(message);
    });
  }

  get working(): boolean {
    return this.#pending !== null;
  }

  stop(reason: Error): Promise<number> {
    this.failed ??= reason;
    return this.#worker.terminate();
  }
}

/** A thread held by one request: rooms go in as they are read, then the PDF or the reports come out. */
export class ReportJob {
  static #nextId = 1;
  readonly #id = ReportJob.#nextId++;
  readonly #thread: ReportThread;
  readonly #release: (thread: ReportThread) => void;
  readonly #from: string;
  readonly #to: string;
  #done = false;
  #cancelled = false;
  /** Rooms handed over so far. */
  rooms = 0;

  constructor(thread: ReportThread, from: string, to: string, release: (thread: ReportThread) => void) {
    this.#thread = thread;
    this.#from = from;
    this.#to = to;
    this.#release = release;
  }

  get ended(): boolean {
    return this.#done;
  }

  /**
   * Hands a room's records over, a few per message with a turn of the event loop between them,
   * so that other requests are served meanwhile. `keepSleeps`: the report thread keeps the records
   * for a per-minute CSV. Rejects with ReportCancelled once the job was cancelled.
   */
  async add({ room, sleeps, rule }: RoomRecords, keepSleeps = false): Promise<void> {
    const entries = [...sleeps];
    for (let at = 0; at < entries.length; at += RECORDS_PER_MESSAGE) {
      this.#check();
      const packed = packSleeps(new Map(entries.slice(at, at + RECORDS_PER_MESSAGE)));
      this.#thread.post({ type: 'sleeps', job: this.#id, sleeps: packed }, transferables(packed));
      await nextTurn();
    }
    this.#check();
    this.#thread.post({ type: 'room', job: this.#id, room, from: this.#from, to: this.#to, rule, keepSleeps });
    this.rooms++;
  }

  #check(): void {
    if (this.#cancelled) throw new ReportCancelled();
    if (this.#done) throw new Error('the report job has ended');
  }

  async pdf(generatedAt: string): Promise<Buffer> {
    return this.#bytes({ type: 'finish', job: this.#id, output: 'pdf', generatedAt });
  }

  /** The JSON of `{ reports }` (what GET /api/reports/data answers), as UTF-8 bytes. */
  async json(): Promise<Buffer> {
    return this.#bytes({ type: 'finish', job: this.#id, output: 'json' });
  }

  /** The CSV of the reports in the encoding (per-minute rows need the rooms added with `keepSleeps`). */
  async csv(kind: CsvKind, encoding: CsvEncoding): Promise<Buffer> {
    return this.#bytes({ type: 'finish', job: this.#id, output: 'csv', kind, encoding });
  }

  async #bytes(message: WorkerRequest & { type: 'finish'; output: 'pdf' | 'json' | 'csv' }): Promise<Buffer> {
    const reply = await this.#finish(message);
    if (reply.output !== message.output) throw new Error(`report thread: ${message.output} was asked for`);
    return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  }

  async reports(): Promise<RoomReport[]> {
    const reply = await this.#finish({ type: 'finish', job: this.#id, output: 'reports' });
    if (reply.output !== 'reports') throw new Error('report thread: reports were asked for');
    return reply.reports;
  }

  async #finish(message: WorkerRequest & { type: 'finish' }): Promise<WorkerReply & { ok: true }> {
    if (this.#done) throw new Error('the report job has ended');
    try {
      const reply = await this.#thread.finish(message);
      if (!reply.ok) throw new Error(`report thread: ${reply.message}`);
      return reply;
    } finally {
      this.#end();
    }
  }

  /**
   * Gives the thread back without an answer: the worker forgets the rooms, or, drawing, is
   * stopped (and replaced). Safe to call after the job ended.
   */
  cancel(): void {
    if (this.#done) return;
    this.#cancelled = true;
    if (this.#thread.working) void this.#thread.stop(new ReportCancelled());
    else if (this.#thread.failed === null) this.#thread.post({ type: 'drop', job: this.#id });
    this.#end();
  }

  #end(): void {
    if (this.#done) return;
    this.#done = true;
    this.#release(this.#thread);
  }
}

interface Waiting {
  from: string;
  to: string;
  resolve(job: ReportJob): void;
  reject(error: Error): void;
}

export class ReportThreads {
  readonly #threads: ReportThread[] = [];
  readonly #queue: Waiting[] = [];
  readonly #size: number;
  #stopped = false;
  /** Jobs cancelled since the start (waiting or at work): what tests and logs read. */
  cancelled = 0;

  constructor(size: number = REPORT_THREADS) {
    this.#size = size;
  }

  /**
   * A thread for one report job of the period, once one is free (in the order asked). Rejects with
   * ReportCancelled when `signal` aborts first; after that, the caller cancels the job it holds.
   */
  open(from: string, to: string, signal?: AbortSignal): Promise<ReportJob> {
    if (this.#stopped) return Promise.reject(new Error('the report threads have stopped'));
    if (signal?.aborted) {
      this.cancelled++;
      return Promise.reject(new ReportCancelled());
    }
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { from, to, resolve, reject };
      const onAbort = () => {
        const at = this.#queue.indexOf(waiting);
        if (at >= 0) {
          this.#queue.splice(at, 1);
          this.cancelled++;
          reject(new ReportCancelled());
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.resolve = (job) => {
        signal?.removeEventListener('abort', onAbort);
        const cancel = () => {
          if (job.ended) return;
          this.cancelled++;
          job.cancel();
        };
        // From here on the abort stops the job itself.
        if (signal?.aborted) cancel();
        else signal?.addEventListener('abort', cancel, { once: true });
        resolve(job);
      };
      this.#queue.push(waiting);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    // A thread that failed or was stopped is replaced by a new one.
    for (let i = this.#threads.length - 1; i >= 0; i--) if (this.#threads[i]?.failed) this.#threads.splice(i, 1);
    while (this.#queue.length > 0 && !this.#stopped) {
      let thread = this.#threads.find((candidate) => !candidate.busy);
      if (thread === undefined && this.#threads.length < this.#size) {
        thread = new ReportThread();
        this.#threads.push(thread);
      }
      if (thread === undefined) return;
      const waiting = this.#queue.shift() as Waiting;
      thread.busy = true;
      waiting.resolve(
        new ReportJob(thread, waiting.from, waiting.to, (released) => {
          released.busy = false;
          this.#dispatch();
        }),
      );
    }
  }

  /** Every thread now at work (for tests: a cancelled job's thread is gone). */
  get working(): number {
    return this.#threads.filter((thread) => thread.busy).length;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const waiting of this.#queue.splice(0)) waiting.reject(new Error('the report threads have stopped'));
    await Promise.all(this.#threads.splice(0).map((thread) => thread.stop(new Error('the report threads have stopped'))));
  }
}
