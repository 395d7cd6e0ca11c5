/**
 * An imported SMF recording kept like the live stream (signals/signalStore.ts): its frames grouped by
 * channel and minute and compressed, in the import worker, so that the sleep viewer's zoom reaches
 * the raw signals of an imported night as it does for a monitored one.
 */
import { constants, gzipSync } from 'node:zlib';
import { SMF_HEADER_SIZE } from '@nemuri/parser/smf';
import { splitFrames } from '../signals/smfHeader.ts';

const MINUTE_US = 60_000_000;

/** A minute of one channel: frames concatenated in file order, gzip-compressed. */
export interface RecordingChunk {
  channel: string;
  minuteUs: number;
  frames: Uint8Array;
  frameCount: number;
  firstSeq: number;
  lastSeq: number;
}

interface OpenMinute {
  minuteUs: number;
  parts: Uint8Array[];
  firstSeq: number;
  lastSeq: number;
}

export class RecordingChunks {
  readonly #open = new Map<string, OpenMinute>();
  readonly #emit: (chunk: RecordingChunk) => void;

  constructor(emit: (chunk: RecordingChunk) => void) {
    this.#emit = emit;
  }

  /** Adds validated frames (a multi frame's nested frames go to their own channels). `bytes` may be reused afterwards. */
  addStream(bytes: Uint8Array): void {
    for (const frame of splitFrames(bytes)) {
      if (frame.header.channel === 'multi') this.addStream(frame.bytes.subarray(SMF_HEADER_SIZE, frame.bytes.length - 4));
      else if (frame.header.channel !== undefined) this.#add(frame.header.channel, frame.header.startTimeUs, frame.header.sequence, frame.bytes);
    }
  }

  /** Closes the open minutes. */
  finish(): void {
    for (const channel of [...this.#open.keys()]) this.#close(channel);
  }

  #add(channel: string, startUs: number, sequence: number, bytes: Uint8Array): void {
    const minuteUs = Math.floor(startUs / MINUTE_US) * MINUTE_US;
    let open = this.#open.get(channel);
    if (open !== undefined && open.minuteUs !== minuteUs) {
      this.#close(channel);
      open = undefined;
    }
    if (open === undefined) {
      open = { minuteUs, parts: [], firstSeq: sequence, lastSeq: sequence };
      this.#open.set(channel, open);
    }
    open.parts.push(bytes.slice());
    open.firstSeq = Math.min(open.firstSeq, sequence);
    open.lastSeq = Math.max(open.lastSeq, sequence);
  }

  #close(channel: string): void {
    const open = this.#open.get(channel);
    if (open === undefined) return;
    this.#open.delete(channel);
    const whole = new Uint8Array(open.parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of open.parts) {
      whole.set(part, at);
      at += part.length;
    }
    // The fastest level: a recording is compressed as fast as it is analysed, and only a little larger.
    const frames = gzipSync(whole, { level: constants.Z_BEST_SPEED });
    // A copy with its own buffer: zlib may hand back a slice of a shared pool, which must not be transferred.
    this.#emit({
      channel,
      minuteUs: open.minuteUs,
      frames: new Uint8Array(frames),
      frameCount: open.parts.length,
      firstSeq: open.firstSeq,
      lastSeq: open.lastSeq,
    });
  }
}
