/** Runs one import in a worker thread (importWorkerMain.ts) and answers its result or its failure. */
import { Worker } from 'node:worker_threads';
import type { ImportErrorCode, ReadColumn } from '@nemuri/shared/imports';
import { ImportError } from './importError.ts';
import type { ImportJob, ImportSink } from './importRecording.ts';
import type { ImportResult } from './importResult.ts';
import type { RecordingChunk } from './recordingChunks.ts';
import type { SmfReplay } from './smfImport.ts';
import { mergeReplays, splitRecording } from './smfParallel.ts';

export type ImportWorkerReply =
  | { type: 'progress'; bytesRead: number }
  | { type: 'chunk'; chunk: RecordingChunk }
  | { type: 'done'; result: ImportResult }
  | { type: 'replayed'; replay: SmfReplay }
  | { type: 'failed'; code: ImportErrorCode; message: string; columns?: ReadColumn[] };

const WORKER_URL = new URL('./importWorker.mjs', import.meta.url);

/** Imports a stored upload in worker threads: a long SMF recording in two parts at once, anything else in one. */
export async function runImport(job: ImportJob, sink: ImportSink = {}): Promise<ImportResult> {
  const parts = job.format === 'smf' ? await splitRecording(job.path).catch(() => null) : null;
  if (parts === null) return (await inWorker(job, sink)) as ImportResult;
  const [before, after] = (await Promise.all(parts.map((part) => inWorker({ ...job, part }, sink)))) as [SmfReplay, SmfReplay];
  return mergeReplays(before, after, parts[1].countFromMs, job.source);
}

function inWorker(job: ImportJob, sink: ImportSink): Promise<ImportResult | SmfReplay> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
      void worker.terminate();
    };
    worker.on('message', (reply: ImportWorkerReply) => {
      if (reply.type === 'progress') sink.progress?.(reply.bytesRead);
      else if (reply.type === 'chunk') sink.chunk?.(reply.chunk);
      else if (reply.type === 'done') settle(() => resolve(reply.result));
      else if (reply.type === 'replayed') settle(() => resolve(reply.replay));
      else settle(() => reject(new ImportError(reply.code, reply.message, reply.columns)));
    });
    worker.on('error', (error) => settle(() => reject(new ImportError('internal', error.message))));
    worker.on('exit', (code) => settle(() => reject(new ImportError('internal', `the import stopped (exit code ${code})`))));
  });
}
