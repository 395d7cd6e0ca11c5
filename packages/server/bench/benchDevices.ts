// The simulated devices of the ingest benches (bench:ingest, bench:ingest-processes), in a worker
// thread of their own so that the subscribers' timestamps never wait for signal generation. They
// publish, and note when each frame left in a table shared with the subscribers' thread, by device,
// channel and sequence number, in absolute time (each thread's performance.now() has its own origin).
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { SPREAD_GROUP, SPREAD_MS, startSimulation, type MessageShape, type SimulatedChannel } from '@nemuri/simulator/index';
import { threadLoad, type ThreadLoad } from './measures.ts';

export const BENCH_CHANNELS: SimulatedChannel[] = ['ecg', 'respiAxl', 'respiHr'];
export const BENCH_SECRET = 'bench-device-secret';

export interface BenchDevicesData {
  serials: string[];
  broker: string;
  /** Publish times: `publishedIndex` into a Float64Array over it. */
  times: SharedArrayBuffer;
  /** Sequence numbers noted: the run's seconds and some to spare. */
  maxSeq: number;
  shape: MessageShape;
  speed: number;
  seconds: number;
  /** Each device's first seconds sent again in turn after this many (startSimulation's `replaySeconds`); 0: all generated. */
  replaySeconds: number;
}

export interface BenchDevicesReport {
  type: 'done';
  stats: { framesGenerated: number; messagesGenerated: number; framesPublished: number; publishErrors: number };
  /** The device thread's load from its first frame. */
  load: ThreadLoad;
}

/** From the device thread: connected, its first frame (absolute time), then its report. */
export type BenchDevicesMessage = { type: 'connected' } | { type: 'streaming'; at: number } | BenchDevicesReport;

/** Where a frame's publish time is in the shared table. */
export function publishedIndex(device: number, channel: number, sequence: number, maxSeq: number): number {
  return (device * BENCH_CHANNELS.length + channel) * maxSeq + sequence;
}

/**
 * When device `device` (of `devices`, in the order given) was due to send its second `sequence`, on
 * the simulator's schedule (simulation.ts: second k once it is over, its devices spread over the
 * next 900 ms in groups of 50), counted from device 0's first frame at `firstPublish`.
 */
export function scheduledAt(firstPublish: number, device: number, devices: number, sequence: number, speed: number): number {
  const group = Math.floor(device / SPREAD_GROUP) * SPREAD_GROUP;
  return firstPublish + (sequence * 1000) / speed + (SPREAD_MS / speed) * (group / devices);
}

/** Runs the devices in the calling worker thread; `onStreaming` and `beforeReport` frame the streaming phase (a profile). */
export async function simulateBenchDevices(
  { serials, broker, times, maxSeq, shape, speed, seconds, replaySeconds }: BenchDevicesData,
  hooks: { onStreaming?: () => void; beforeReport?: () => Promise<void> } = {},
): Promise<void> {
  const published = new Float64Array(times);
  const indexOf = new Map(serials.map((serial, i) => [serial, i]));
  const load = threadLoad();
  const post = (message: BenchDevicesMessage): void => parentPort?.postMessage(message);
  let streaming = false;
  const simulation = await startSimulation({
    serials,
    broker,
    secretFor: () => BENCH_SECRET,
    speed,
    durationSeconds: seconds,
    channels: BENCH_CHANNELS,
    shape,
    replaySeconds,
    seed: 'bench',
    onFrame: (serial, frame) => {
      const now = performance.timeOrigin + performance.now();
      if (!streaming) {
        streaming = true;
        load.mark();
        hooks.onStreaming?.();
        post({ type: 'streaming', at: now });
      }
      const device = indexOf.get(serial);
      const channel = BENCH_CHANNELS.indexOf(frame.channel);
      if (device !== undefined && channel >= 0 && frame.sequence < maxSeq) published[publishedIndex(device, channel, frame.sequence, maxSeq)] = now;
    },
    onError: (error) => console.error(`simulator: ${error.message}`),
  });
  post({ type: 'connected' });
  await simulation.done;
  const loadNow = load.read();
  await hooks.beforeReport?.();
  const { framesGenerated, messagesGenerated, framesPublished, publishErrors } = simulation.stats;
  post({ type: 'done', stats: { framesGenerated, messagesGenerated, framesPublished, publishErrors }, load: loadNow });
}
