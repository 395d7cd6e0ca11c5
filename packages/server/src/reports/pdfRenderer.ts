/**
 * Report PDFs are drawn in worker threads (pdfWorkerMain.ts), at most PDF_THREADS at once per
 * process: drawing is CPU-bound, and on the server's thread it stopped every request of every
 * tenant meanwhile. Further PDFs wait here in order; the fair-share limits (http/fairShare.ts)
 * keep one tenant from filling that queue. Threads start on the first PDF and stay (the fonts are
 * read once each); they do not keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RoomReport } from '@nemuri/shared/report/roomReport';

/** Threads drawing PDFs at once: one core is left to the server's thread and the database. */
export const PDF_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

export interface PdfRequest {
  id: number;
  reports: readonly RoomReport[];
  generatedAt: string;
}

export type PdfReply = { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string };

const WORKER_URL = new URL('./pdfWorker.mjs', import.meta.url);

interface Job {
  reports: readonly RoomReport[];
  generatedAt: string;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

class PdfThread {
  readonly #worker: Worker;
  #job: Job | null = null;
  #nextId = 1;
  #onIdle: () => void;
  failed: Error | null = null;

  constructor(onIdle: () => void) {
    this.#onIdle = onIdle;
    this.#worker = new Worker(WORKER_URL);
    this.#worker.unref();
    this.#worker.on('message', (reply: PdfReply) => {
      const job = this.#job;
      this.#job = null;
      if (job !== null) {
        if (reply.ok) job.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
        else job.reject(new Error(`report PDF: ${reply.message}`));
      }
      this.#onIdle();
    });
    const fail = (error: Error) => {
      this.failed = error;
      this.#job?.reject(error);
      this.#job = null;
      this.#onIdle();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the PDF thread stopped (exit code ${code})`)));
  }

  get idle(): boolean {
    return this.#job === null && this.failed === null;
  }

  run(job: Job): void {
    this.#job = job;
    this.#worker.postMessage({ id: this.#nextId++, reports: job.reports, generatedAt: job.generatedAt } satisfies PdfRequest);
  }

  stop(): Promise<number> {
    return this.#worker.terminate();
  }
}

export class PdfRenderer {
  readonly #threads: PdfThread[] = [];
  readonly #queue: Job[] = [];
  readonly #size: number;
  #stopped = false;

  constructor(size: number = PDF_THREADS) {
    this.#size = size;
  }

  render(reports: readonly RoomReport[], generatedAt: string): Promise<Buffer> {
    if (this.#stopped) return Promise.reject(new Error('the PDF renderer has stopped'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ reports, generatedAt, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    // A thread that failed is replaced by a new one.
    for (let i = this.#threads.length - 1; i >= 0; i--) if (this.#threads[i]?.failed) this.#threads.splice(i, 1);
    while (this.#queue.length > 0 && !this.#stopped) {
      let thread = this.#threads.find((candidate) => candidate.idle);
      if (thread === undefined && this.#threads.length < this.#size) {
        thread = new PdfThread(() => this.#dispatch());
        this.#threads.push(thread);
      }
      if (thread === undefined) return;
      thread.run(this.#queue.shift() as Job);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('the PDF renderer has stopped'));
    await Promise.all(this.#threads.splice(0).map((thread) => thread.stop()));
  }
}
