/**
 * An SMF recording (docs/device-protocol.md: frames one after another) read from disk a few megabytes
 * at a time, never whole: the frames of each piece are decoded by the WebAssembly parser and replayed
 * into the sleep days they fall in. A part of a file (a byte range) can be replayed on its own, so that
 * two workers share a long recording (smfParallel.ts).
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { NightEpochs } from '@nemuri/analysis/sleep';
import { completeSmfLength, ParseError, type Parser } from '@nemuri/parser/node';
import { SMF_HEADER_SIZE, SMF_MAGIC, SMF_MAX_PAYLOAD, SMF_MIN_FRAME_SIZE, type SmfSampleFrame } from '@nemuri/parser/smf';
import { SMF_UNUSED_CHANNELS } from '@nemuri/shared/importChannels';
import type { SleepDayRule } from '../sleep/sleepDay.ts';
import { ImportError } from './importError.ts';
import { channelColumns, RecordingExtent, keptDays, type ExtentSummary, type ImportResult } from './importResult.ts';
import { RecordingChunks, type RecordingChunk } from './recordingChunks.ts';
import { SignalNights } from './signalNights.ts';
import { analyzeSleepDay } from '@nemuri/analysis/sleep';

const PIECE_BYTES = 4 * 1024 * 1024;
/** Channels interleave in a recording: a second's frames of every channel may come a little apart. */
const INTERLEAVE_MARGIN_MS = 5_000;

/** Which part of the file to replay, and which of its frames count (stored, measured). */
export interface SmfPart {
  /** Replay from the first frame at or after this byte. */
  startByte: number;
  /** Stop before the first frame at or after this byte (null: the end of the file). */
  endByte: number | null;
  /** Frames starting at or after this instant count (those before only warm the estimator up). */
  countFromMs: number;
  /** Frames starting at or after this instant do not count. */
  countUntilMs: number;
}

export interface SmfReplay {
  nights: Map<string, NightEpochs>;
  extent: ExtentSummary;
}

const WHOLE: SmfPart = { startByte: 0, endByte: null, countFromMs: Number.NEGATIVE_INFINITY, countUntilMs: Number.POSITIVE_INFINITY };

/** Reads the whole recording into sleep days; with `onChunk`, also hands over its frames for storage. */
export async function importSmf(
  parser: Parser,
  path: string,
  rule: SleepDayRule,
  source: string,
  onProgress?: (bytesRead: number) => void,
  onChunk?: (chunk: RecordingChunk) => void,
): Promise<ImportResult> {
  const { nights, extent } = await replaySmf(parser, path, rule, WHOLE, onProgress, onChunk);
  return resultOf(nights, extent, source);
}

/** The sleep days of replayed nights, and what the file held. */
export function resultOf(nights: Map<string, NightEpochs>, extent: ExtentSummary, source: string): ImportResult {
  if (extent.samples === 0) throw new ImportError('no-usable-signal', 'The recording holds no frames of a channel the sleep analysis uses');
  const records = new Map([...nights].map(([day, epochs]) => [day, analyzeSleepDay(epochs, source)]));
  return {
    recordStartMs: extent.startMs,
    recordEndMs: extent.endMs,
    channels: extent.channels,
    columns: channelColumns(extent),
    sampleCount: extent.samples,
    deviceSerial: null,
    days: keptDays(records),
  };
}

/** The first frame boundary at or after `fromByte`: where the magic starts a frame that decodes. */
export async function frameStartAtOrAfter(parser: Parser, file: FileHandle, fromByte: number): Promise<{ offset: number; startTimeUs: number } | null> {
  const window = new Uint8Array(SMF_MIN_FRAME_SIZE + SMF_MAX_PAYLOAD + 64 * 1024);
  for (let base = fromByte; ; base += window.length - SMF_MIN_FRAME_SIZE - SMF_MAX_PAYLOAD) {
    const { bytesRead } = await file.read(window, 0, window.length, base);
    if (bytesRead < SMF_HEADER_SIZE) return null;
    const bytes = window.subarray(0, bytesRead);
    const searchEnd = bytesRead === window.length ? window.length - SMF_MIN_FRAME_SIZE - SMF_MAX_PAYLOAD : bytesRead;
    for (let at = bytes.indexOf(SMF_MAGIC[0] as number); at >= 0 && at < searchEnd; at = bytes.indexOf(SMF_MAGIC[0] as number, at + 1)) {
      if (bytes[at + 1] !== SMF_MAGIC[1] || bytes[at + 2] !== SMF_MAGIC[2] || bytes[at + 3] !== SMF_MAGIC[3] || at + SMF_HEADER_SIZE > bytes.length) continue;
      const size = SMF_MIN_FRAME_SIZE + new DataView(bytes.buffer, bytes.byteOffset + at, SMF_HEADER_SIZE).getUint32(40, true);
      if (size > SMF_MIN_FRAME_SIZE + SMF_MAX_PAYLOAD || at + size > bytes.length) continue;
      try {
        // The CRC decides: bytes inside a payload that happen to look like a header do not pass it.
        const frame = parser.decodeSmfFrame(bytes.subarray(at, at + size));
        return { offset: base + at, startTimeUs: frame.startTimeUs };
      } catch {
        // Not a frame: look further.
      }
    }
    if (bytesRead < window.length) return null;
  }
}

/** Replays a part of the recording: per sleep day its per-minute epochs, and what the counted frames held. */
export async function replaySmf(
  parser: Parser,
  path: string,
  rule: SleepDayRule,
  part: SmfPart,
  onProgress: (bytesRead: number) => void = () => undefined,
  onChunk?: (chunk: RecordingChunk) => void,
): Promise<SmfReplay> {
  const chunks = onChunk === undefined ? null : new RecordingChunks(onChunk);
  const file = await open(path, 'r');
  const nights = new SignalNights(rule);
  const extent = new RecordingExtent();
  let latestStartMs = Number.NEGATIVE_INFINITY;
  let buffer = new Uint8Array(PIECE_BYTES + SMF_MIN_FRAME_SIZE + SMF_MAX_PAYLOAD);
  let held = 0;
  try {
    const size = (await file.stat()).size;
    const first = part.startByte === 0 ? { offset: 0 } : await frameStartAtOrAfter(parser, file, part.startByte);
    let fileOffset = first?.offset ?? size;
    const endByte = part.endByte === null ? size : ((await frameStartAtOrAfter(parser, file, part.endByte))?.offset ?? size);
    let position = fileOffset;
    for (;;) {
      if (buffer.length - held < PIECE_BYTES) {
        const larger = new Uint8Array(held + PIECE_BYTES);
        larger.set(buffer.subarray(0, held));
        buffer = larger;
      }
      const { bytesRead } = await file.read(buffer, held, Math.max(0, Math.min(PIECE_BYTES, endByte - position)), position);
      position += bytesRead;
      const end = held + bytesRead;
      let whole: number;
      try {
        whole = completeSmfLength(buffer.subarray(0, end), fileOffset);
      } catch (error) {
        if (error instanceof ParseError) throw new ImportError('corrupt', error.message);
        throw error;
      }
      if (bytesRead === 0) {
        if (end > 0)
          throw new ImportError('corrupt', `The file ends inside a frame at byte ${fileOffset} (${end} bytes of an incomplete frame): it was cut short`);
        break;
      }
      if (whole > 0) {
        let decoded;
        try {
          decoded = parser.decodeSmfStream(buffer.subarray(0, whole));
        } catch (error) {
          if (error instanceof ParseError)
            throw new ImportError('corrupt', `${error.message}${error.offset === undefined ? '' : ` (byte ${fileOffset + error.offset})`}`);
          throw error;
        }
        if (chunks !== null) {
          const counted = countedBytes(buffer.subarray(0, whole), decoded, part);
          if (counted !== null) chunks.addStream(counted);
        }
        const frames: SmfSampleFrame[] = [];
        for (const frame of decoded) {
          for (const sample of frame.channel === 'multi' ? frame.frames : [frame]) {
            const startMs = sample.startTimeUs / 1000;
            if (startMs >= part.countUntilMs) continue;
            if (SMF_UNUSED_CHANNELS.has(sample.channel) || !(sample.sampleRate > 0)) {
              if (startMs >= part.countFromMs) extent.skip(sample.channel, sample.sampleCount);
              continue;
            }
            if (startMs >= part.countFromMs) extent.add(sample.channel, startMs, startMs + (sample.sampleCount * 1000) / sample.sampleRate, sample.sampleCount);
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
  return { nights: nights.finishEpochs(), extent: extent.summary() };
}

/** The bytes of the top-level frames of a piece that count (all of them in a whole-file replay). */
function countedBytes(
  bytes: Uint8Array,
  decoded: readonly { startTimeUs: number; byteOffset: number; byteLength: number }[],
  part: SmfPart,
): Uint8Array | null {
  if (part.countFromMs === Number.NEGATIVE_INFINITY && part.countUntilMs === Number.POSITIVE_INFINITY) return bytes;
  const from = decoded.findIndex((frame) => frame.startTimeUs / 1000 >= part.countFromMs);
  if (from < 0) return null;
  let to = from;
  while (to < decoded.length && (decoded[to] as { startTimeUs: number }).startTimeUs / 1000 < part.countUntilMs) to++;
  if (to === from) return null;
  const first = decoded[from] as { byteOffset: number };
  const last = decoded[to - 1] as { byteOffset: number; byteLength: number };
  return bytes.subarray(first.byteOffset, last.byteOffset + last.byteLength);
}
