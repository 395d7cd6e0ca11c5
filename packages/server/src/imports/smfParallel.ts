/**
 * A long SMF recording replayed by two workers at once, one per half of the file: the machine's cores
 * share the night instead of one doing all of it. The second worker starts ten minutes of recording
 * before its half, so that its estimator has settled (in bed, asleep, the sleeping heart rate) when its
 * minutes begin; each worker's epochs count on its own side of the split minute, and the merged night is
 * scored once. The split depends only on the file, so processing it again gives the same record.
 */
import { open } from 'node:fs/promises';
import { createParserSync, type Parser } from '@nemuri/parser/node';
import type { NightEpochs } from '@nemuri/analysis/sleep';
import { EPOCH_MS } from '@nemuri/analysis/sleep';
import { ImportError } from './importError.ts';
import { joinExtents, type ImportResult } from './importResult.ts';
import { frameStartAtOrAfter, resultOf, type SmfPart, type SmfReplay } from './smfImport.ts';

/** Below this a file is replayed by one worker (starting a second costs more than it saves). */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;
const WARM_UP_MS = 10 * 60_000;

let parser: Parser | null = null;

/** The two parts of a recording, or null when it is too short to split. */
export async function splitRecording(path: string): Promise<[SmfPart, SmfPart] | null> {
  parser ??= createParserSync();
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    if (size < PARALLEL_MIN_BYTES) return null;
    const first = await frameStartAtOrAfter(parser, file, 0);
    const middle = await frameStartAtOrAfter(parser, file, Math.floor(size / 2));
    if (first === null || middle === null || first.offset !== 0) return null;
    const splitMs = Math.floor(middle.startTimeUs / 1000 / EPOCH_MS) * EPOCH_MS;
    const spanMs = middle.startTimeUs / 1000 - first.startTimeUs / 1000;
    if (!(spanMs > 2 * WARM_UP_MS)) return null;
    const warmUpBytes = Math.ceil((middle.offset / spanMs) * WARM_UP_MS);
    return [
      { startByte: 0, endByte: middle.offset, countFromMs: Number.NEGATIVE_INFINITY, countUntilMs: splitMs },
      { startByte: Math.max(0, middle.offset - warmUpBytes), endByte: null, countFromMs: splitMs, countUntilMs: Number.POSITIVE_INFINITY },
    ];
  } finally {
    await file.close();
  }
}

/** The nights of both parts as one: each minute from the part it counts in. */
export function mergeReplays(before: SmfReplay, after: SmfReplay, splitMs: number, source: string): ImportResult {
  const nights = new Map<string, NightEpochs>();
  for (const day of [...new Set([...before.nights.keys(), ...after.nights.keys()])].sort()) {
    const early = before.nights.get(day);
    const late = after.nights.get(day);
    if (early === undefined || late === undefined) {
      nights.set(day, (early ?? late) as NightEpochs);
      continue;
    }
    const splitMinute = Math.max(0, Math.min(early.presence.length, Math.round((splitMs - early.startMs) / EPOCH_MS)));
    const merged: NightEpochs = {
      startMs: early.startMs,
      presence: joined(early.presence, late.presence, splitMinute),
      activity: joined(early.activity, late.activity, splitMinute),
      respirationRate: joined(early.respirationRate, late.respirationRate, splitMinute),
      heartRate: joined(early.heartRate, late.heartRate, splitMinute),
      respirationVariation: joined(early.respirationVariation, late.respirationVariation, splitMinute),
      apneaEvents: joined(early.apneaEvents, late.apneaEvents, splitMinute),
    };
    nights.set(day, merged);
  }
  if (before.extent.samples === 0 && after.extent.samples === 0)
    throw new ImportError('no-usable-signal', 'The recording holds no frames of a channel the sleep analysis uses');
  return resultOf(nights, joinExtents(before.extent, after.extent), source);
}

function joined<T extends Uint8Array | Uint16Array | Float32Array>(early: T, late: T, splitMinute: number): T {
  const out = early.slice() as T;
  out.set(late.subarray(splitMinute), splitMinute);
  return out;
}
