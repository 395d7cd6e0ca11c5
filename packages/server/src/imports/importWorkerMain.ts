/**
 * Worker thread of the imports (importRunner.ts): one file, read from disk and analysed here, so that a
 * long recording never holds up the server's event loop. The answer is the sleep days; the main thread
 * writes them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createParserSync } from '@nemuri/parser/node';
import { ImportError } from './importError.ts';
import { importRecording, replayPart, type ImportJob } from './importRecording.ts';
import type { RecordingChunk } from './recordingChunks.ts';
import type { ImportWorkerReply } from './importRunner.ts';

const port = parentPort;
if (port === null) throw new Error('importWorkerMain.ts runs as a worker thread (importWorker.mjs)');
const reply = (message: ImportWorkerReply): void => (port as NonNullable<typeof port>).postMessage(message);

try {
  const job = workerData as ImportJob;
  const sink = {
    progress: (bytesRead: number) => reply({ type: 'progress', bytesRead }),
    chunk: (chunk: RecordingChunk) =>
      (port as NonNullable<typeof port>).postMessage({ type: 'chunk', chunk } satisfies ImportWorkerReply, [chunk.frames.buffer as ArrayBuffer]),
  };
  const parser = createParserSync();
  if (job.part !== undefined) reply({ type: 'replayed', replay: await replayPart(parser, { ...job, part: job.part }, sink) });
  else reply({ type: 'done', result: await importRecording(parser, job, sink) });
} catch (error) {
  if (error instanceof ImportError)
    reply({ type: 'failed', code: error.code, message: error.message, ...(error.columns === undefined ? {} : { columns: error.columns }) });
  else reply({ type: 'failed', code: 'internal', message: error instanceof Error ? error.message : String(error) });
}
