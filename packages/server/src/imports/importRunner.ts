/** Runs one import in a worker thread (importWorkerMain.ts) and answers its result or its failure. */
import { Worker } from 'node:worker_threads';
import type { ImportErrorCode } from '@nemuri/shared/imports';
import { ImportError } from './importError.ts';
import type { ImportJob, ImportSink } from './importRecording.ts';
import type { ImportResult } from './importResult.ts';
import type { RecordingChunk } from './recordingChunks.ts';

export type ImportWorkerReply = { type: 'progress'; bytesRead: number } | { type: 'chunk'; chunk: RecordingChunk } | { type: 'done'; result: ImportResult } | { type: 'failed'; code: ImportErrorCode; message: string };

const WORKER_URL = new URL('./importWorker.mjs', import.meta.url);

export function runImport(job: ImportJob, sink: ImportSink = {}): Promise<ImportResult> {
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
      else settle(() => reject(new ImportError(reply.code, reply.message)));
    });
    worker.on('error', (error) => settle(() => reject(new ImportError('internal', error.message))));
    worker.on('exit', (code) => settle(() => reject(new ImportError('internal', `the import stopped (exit code ${code})`))));
  });
}
