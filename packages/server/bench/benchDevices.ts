// The simulated devices of the ingest benches (bench:ingest, bench:ingest-processes), in a worker
// thread of their own so that the subscribers' timestamps never wait for signal generation. They
// publish, and note when each frame left in a table shared with the subscribers' thread, by device,
// channel and sequence number, in absolute time (each thread's performance.now() has its own origin).
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { SPREAD_GROUP, SPREAD_MS, startSimulation, type MessageShape, type SimulatedChannel, type Simulation } from '@nemuri/simulator/index';
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
  /** Simulated seconds to send, warm-up included. */
  seconds: number;
  /** The first seconds of them that are warm-up: the thread's load (and profile) counts from their end. Default 0. */
  warmUpSeconds?: number;
  /** Each device's first seconds sent again in turn after this many (startSimulation's `replaySeconds`); 0: all generated. */
  replaySeconds: number;
}

export interface BenchDevicesReport {
  type: 'done';
  stats: { framesGenerated: number; messagesGenerated: number; framesPublished: number; publishErrors: number };
  /** The device thread's load from the end of the warm-up (its first frame without one). */
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
  { serials, broker, times, maxSeq, shape, speed, seconds, warmUpSeconds = 0, replaySeconds }: BenchDevicesData,
  hooks: { onStreaming?: () => void; beforeReport?: () => Promise<void> } = {},
): Promise<void> {
  const published = new Float64Array(times);
  const indexOf = new Map(serials.map((serial, i) => [serial, i]));
  const load = threadLoad();
  const post = (message: BenchDevicesMessage): void => parentPort?.postMessage(message);
  let streaming = false;
  let measuredFrom = Number.POSITIVE_INFINITY;
  const simulation = await startSimulation({
    serials,
    broker,
    secretFor: () => BENCH_SECRET,
    speed,
    durationSeconds: seconds,
    channels: BENCH_CHANNELS,
    shape,
    replaySeconds,
    // The devices report once their last second is acknowledged, then disconnect: 3,000
    // disconnections at once would be in the last second's latency (and load) otherwise.
    lingerMs: 3000,
    seed: 'bench',
    onFrame: (serial, frame) => {
      const now = performance.timeOrigin + performance.now();
      if (!streaming) {
        streaming = true;
        measuredFrom = now + (warmUpSeconds * 1000) / speed;
        post({ type: 'streaming', at: now });
      }
      if (now >= measuredFrom) {
        measuredFrom = Number.POSITIVE_INFINITY;
        load.mark();
        hooks.onStreaming?.();
      }
      const device = indexOf.get(serial);
      const channel = BENCH_CHANNELS.indexOf(frame.channel);
      if (device !== undefined && channel >= 0 && frame.sequence < maxSeq) published[publishedIndex(device, channel, frame.sequence, maxSeq)] = now;
    },
    onError: (error) => console.error(`simulator: ${error.message}`),
  });
  post({ type: 'connected' });
  await lastSecondAcknowledged(simulation, seconds);
  const loadNow = load.read();
  await hooks.beforeReport?.();
  const { framesGenerated, messagesGenerated, framesPublished, publishErrors } = simulation.stats;
  post({ type: 'done', stats: { framesGenerated, messagesGenerated, framesPublished, publishErrors }, load: loadNow });
}

/** Once the run's last second is sent and acknowledged (as the simulation's own end waits: 5 s at most). */
async function lastSecondAcknowledged(simulation: Simulation, seconds: number): Promise<void> {
  let ended = false;
  void simulation.done.finally(() => (ended = true));
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  while (!ended && simulation.stats.simulatedSeconds < seconds) await sleep(10);
  const deadline = performance.now() + 5000;
  while (!ended && simulation.stats.inFlight > 0 && performance.now() < deadline) await sleep(10);
}
