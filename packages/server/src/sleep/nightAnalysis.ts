/**
 * Scores one stored night in a worker thread: the main thread reads the frames an hour at a time (the
 * database is the main thread's), the worker decodes and replays them (analysisWorker.ts).
 */
import { Worker } from 'node:worker_threads';
import type { SleepRecord } from '@nemuri/analysis/sleep';
import type { WorkerReply, WorkerRequest } from './workerProtocol.ts';

/** The channels a night is scored from (EIT adds nothing the estimator needs that ECG and acceleration lack). */
export const NIGHT_CHANNELS = ['ecg', 'respiAxl', 'impe', 'respiHr', 'temperature', 'button'] as const;
const SLICE_MS = 3_600_000;

/** Reads a channel's stored frames starting in [fromUs, toUs) as one SMF stream. */
export type ReadFrames = (channel: string, fromUs: number, toUs: number) => Promise<Uint8Array>;

export interface NightResult {
  record: SleepRecord;
  /** Frames replayed. */
  frames: number;
}

const WORKER_URL = new URL('./analysisWorker.mjs', import.meta.url);

export async function analyzeNight(read: ReadFrames, startMs: number, endMs: number, source: string): Promise<NightResult> {
  const worker = new Worker(WORKER_URL);
  const replies: WorkerReply[] = [];
  let waiting: ((reply: WorkerReply) => void) | null = null;
  let failure: Error | null = null;
  worker.on('message', (reply: WorkerReply) => {
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(reply);
    } else replies.push(reply);
  });
  worker.on('error', (error) => {
    failure = error;
    waiting?.({ type: 'error', message: error.message });
  });
  const next = () =>
    new Promise<WorkerReply>((resolve) => {
      const queued = replies.shift();
      if (queued) resolve(queued);
      else if (failure) resolve({ type: 'error', message: failure.message });
      else waiting = resolve;
    });
  const send = (request: WorkerRequest, transfer: ArrayBuffer[] = []) => worker.postMessage(request, transfer);
  try {
    send({ type: 'start', startMs, endMs });
    for (let from = startMs; from < endMs; from += SLICE_MS) {
      const until = Math.min(from + SLICE_MS, endMs);
      const streams: Uint8Array[] = [];
      for (const channel of NIGHT_CHANNELS) {
        const bytes = await read(channel, from * 1000, until * 1000);
        // A private copy can be handed over without copying again.
        if (bytes.byteLength > 0) streams.push(new Uint8Array(bytes));
      }
      send(
        { type: 'slice', untilMs: until, streams },
        streams.map((stream) => stream.buffer as ArrayBuffer),
      );
      const reply = await next();
      if (reply.type === 'error') throw new Error(`night analysis: ${reply.message}`);
    }
    send({ type: 'finish', source });
    const reply = await next();
    if (reply.type === 'error') throw new Error(`night analysis: ${reply.message}`);
    if (reply.type !== 'done') throw new Error('night analysis: unexpected reply');
    return { record: reply.record, frames: reply.frames };
  } finally {
    await worker.terminate();
  }
}
