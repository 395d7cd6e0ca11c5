/**
 * Worker thread of the night analysis (nightAnalysis.ts): decodes the stored frames it is sent and
 * replays them (nightReplay.ts), so that scoring a night never holds up the server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { createParserSync } from '@nemuri/parser/node';
import type { SmfSampleFrame } from '@nemuri/parser/smf';
import { NightReplay } from './nightReplay.ts';
import type { WorkerReply, WorkerRequest } from './workerProtocol.ts';

const port = parentPort;
if (port === null) throw new Error('analysisWorkerMain.ts runs as a worker thread (analysisWorker.mjs)');
const parser = createParserSync();
let replay: NightReplay | null = null;

function reply(message: WorkerReply): void {
  (port as NonNullable<typeof port>).postMessage(message);
}

port.on('message', (request: WorkerRequest) => {
  try {
    if (request.type === 'start') {
      replay = new NightReplay(request.startMs, request.endMs);
      return;
    }
    if (replay === null) throw new Error('the night was not started');
    if (request.type === 'slice') {
      const frames: SmfSampleFrame[] = [];
      for (const stream of request.streams) {
        for (const frame of parser.decodeSmfStream(stream)) if (frame.channel !== 'multi') frames.push(frame);
      }
      replay.add(frames, request.untilMs);
      reply({ type: 'sliced' });
      return;
    }
    const record = replay.finish(request.source);
    reply({ type: 'done', record, frames: replay.frames });
    replay = null;
  } catch (error) {
    reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
});
