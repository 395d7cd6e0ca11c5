import type { SleepRecord } from '@nemuri/analysis/sleep';

/** Main thread → analysis worker. */
export type WorkerRequest =
  | { type: 'start'; startMs: number; endMs: number }
  /** SMF streams (one per channel) of the frames starting before `untilMs`; replay up to it. */
  | { type: 'slice'; untilMs: number; streams: Uint8Array[] }
  | { type: 'finish'; source: string };

/** Analysis worker → main thread. */
export type WorkerReply = { type: 'sliced' } | { type: 'done'; record: SleepRecord; frames: number } | { type: 'error'; message: string };
