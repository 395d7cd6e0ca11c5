/**
 * An SMF recording (docs/device-protocol.md: frames one after another) read from disk a few megabytes
 * at a time, never whole: the frames of each piece are decoded by the WebAssembly parser and replayed
 * into the sleep days they fall in.
 */
import { open } from 'node:fs/promises';
import { completeSmfLength, ParseError, type Parser } from '@nemuri/parser/node';
import { SMF_MAX_PAYLOAD, SMF_MIN_FRAME_SIZE, type SmfSampleFrame } from '@nemuri/parser/smf';
import type { SleepDayRule } from '../sleep/sleepDay.ts';
import { ImportError } from './importError.ts';
import { keptDays, RecordingExtent, type ImportResult } from './importResult.ts';
import { RecordingChunks, type RecordingChunk } from './recordingChunks.ts';
import { SignalNights } from './signalNights.ts';

const PIECE_BYTES = 4 * 1024 * 1024;
/** Channels interleave in a recording: a second's frames of every channel may come a little apart. */
const INTERLEAVE_MARGIN_MS = 5_000;
/** Channels the sleep analysis does not use (EIT is reduced to global impedance live; the epochs do not need it). */
const SKIPPED = new Set(['eit']);

/**
 * Reads the recording into sleep days; with `onChunk`, also hands over its frames a minute and channel
 * at a time for storage.
 */
export async function importSmf(parser: Parser, path: string, rule: SleepDayRule, source: string, onProgress: (bytesRead: number) => void = () => undefined, onChunk?: (chunk: RecordingChunk) => void): Promise<ImportResult> {
  const chunks = onChunk === undefined ? null : new RecordingChunks(onChunk);
  const file = await open(path, 'r');
  const nights = new SignalNights(rule);
  const extent = new RecordingExtent();
  let latestStartMs = Number.NEGATIVE_INFINITY;
  let buffer = new Uint8Array(PIECE_BYTES + SMF_MIN_FRAME_SIZE + SMF_MAX_PAYLOAD);
  let held = 0;
  let fileOffset = 0;
  try {
    for (;;) {
      if (buffer.length - held < PIECE_BYTES) {
        const larger = new Uint8Array(held + PIECE_BYTES);
        larger.set(buffer.subarray(0, held));
        buffer = larger;
      }
      const { bytesRead } = await file.read(buffer, held, PIECE_BYTES, null);
      const end = held + bytesRead;
      let whole: number;
      try {
        whole = completeSmfLength(buffer.subarray(0, end), fileOffset);
      } catch (error) {
        if (error instanceof ParseError) throw new ImportError('corrupt', error.message);
        throw error;
      }
      if (bytesRead === 0) {
        if (end > 0) throw new ImportError('corrupt', `The file ends inside a frame at byte ${fileOffset} (${end} bytes of an incomplete frame): it was cut short`);
        break;
      }
      if (whole > 0) {
        let decoded;
        try {
          decoded = parser.decodeSmfStream(buffer.subarray(0, whole));
        } catch (error) {
          if (error instanceof ParseError) throw new ImportError('corrupt', `${error.message}${error.offset === undefined ? '' : ` (byte ${fileOffset + error.offset})`}`);
          throw error;
        }
        chunks?.addStream(buffer.subarray(0, whole));
        const frames: SmfSampleFrame[] = [];
        for (const frame of decoded) {
          for (const sample of frame.channel === 'multi' ? frame.frames : [frame]) {
            if (SKIPPED.has(sample.channel) || !(sample.sampleRate > 0)) continue;
            const startMs = sample.startTimeUs / 1000;
            extent.add(sample.channel, startMs, startMs + (sample.sampleCount * 1000) / sample.sampleRate, sample.sampleCount);
            if (startMs > latestStartMs) latestStartMs = startMs;
            frames.push(sample);
          }
        }
        // A recording is written in time order: what starts more than the margin before the newest frame is complete.
        nights.add(frames, latestStartMs - INTERLEAVE_MARGIN_MS);
      }
      buffer.copyWithin(0, whole, end);
      held = end - whole;
      fileOffset += whole;
      onProgress(fileOffset + held);
    }
  } finally {
    await file.close();
  }
  chunks?.finish();
  if (extent.empty) throw new ImportError('no-usable-signal', 'The recording holds no frames of a channel the sleep analysis uses');
  return {
    recordStartMs: extent.startMs,
    recordEndMs: extent.endMs,
    channels: [...extent.channels].sort(),
    sampleCount: extent.samples,
    deviceSerial: null,
    days: keptDays(nights.finish(source)),
  };
}
