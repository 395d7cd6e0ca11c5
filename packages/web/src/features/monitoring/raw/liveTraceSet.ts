/**
 * What one raw view holds of a device's live signals: a trace per channel it draws, the playback
 * clock, the nurse-call presses, and the recent EIT frames (for the image at the cursor's time).
 * It is the connection's sink: frames are copied into the traces as they arrive, nothing else.
 */
import type { SmfSampleChannel, SmfSampleFrame } from '@nemuri/parser/smf';
import type { SignalSink } from '../../../lib/live/liveSignals.ts';
import { PlaybackClock } from './playbackClock.ts';
import { CHANNEL_ROWS, MAX_RATE } from './rawViews.ts';
import { SignalTrace } from './signalTrace.ts';

/** EIT frames kept for the image: a few seconds at 20 frames/s, enough to cover the playback delay. */
const EIT_FRAMES_KEPT = 64;
const MAX_PRESSES = 50;

export interface EitFrameAt {
  timeUs: number;
  values: Float32Array;
}

/** Sum of each EIT point's measurements (`width` values a point) into `out`. */
export function globalImpedances(values: Float32Array, points: number, width: number, out: Float32Array): void {
  for (let point = 0; point < points; point++) {
    let sum = 0;
    const base = point * width;
    for (let v = 0; v < width; v++) sum += values[base + v] as number;
    out[point] = sum;
  }
}

export class LiveTraceSet implements SignalSink {
  readonly traces = new Map<SmfSampleChannel, SignalTrace>();
  readonly clock = new PlaybackClock();
  /** Channels that have delivered at least one frame. */
  readonly seen = new Set<SmfSampleChannel>();
  /** Device times (ms) at which the nurse-call button went down, newest last. */
  readonly presses: number[] = [];
  /** The latest EIT frames, oldest first. */
  readonly eitFrames: EitFrameAt[] = [];
  eitWidth = 0;
  #paused = false;
  #lastButton = 0;
  #scratch = new Float32Array(64);
  /** Page time source (ms since the epoch, sub-ms); replaceable in tests. */
  now: () => number = () => performance.timeOrigin + performance.now();

  constructor(channels: readonly SmfSampleChannel[], windowSeconds: number) {
    for (const channel of channels) {
      const components = channel === 'eit' ? 1 : new Set(CHANNEL_ROWS[channel].map((row) => row.component)).size;
      // A trace holds the longest window plus the playback delay's worth.
      this.traces.set(channel, new SignalTrace(components, windowSeconds + 5, MAX_RATE[channel]));
    }
  }

  frame(frame: SmfSampleFrame): void {
    const trace = this.traces.get(frame.channel);
    if (trace === undefined || this.#paused) return;
    this.seen.add(frame.channel);
    const { startTimeUs, sampleRate, sampleCount, width, values } = frame;
    if (frame.channel === 'eit') {
      if (this.#scratch.length < sampleCount) this.#scratch = new Float32Array(sampleCount);
      globalImpedances(values, sampleCount, width, this.#scratch);
      trace.push(startTimeUs, sampleRate, this.#scratch, sampleCount, 1, 0);
      this.#keepEitFrames(frame);
    } else {
      trace.push(startTimeUs, sampleRate, values, sampleCount, width, 0);
      if (frame.channel === 'button') this.#notePresses(frame);
    }
    const endMs = (startTimeUs + ((sampleCount - 1) * 1e6) / sampleRate) / 1000;
    this.clock.observe(endMs, this.now());
  }

  /** While paused, frames are ignored: the picture stays as it was, and resuming leaves a gap. */
  setPaused(paused: boolean): void {
    this.#paused = paused;
  }

  #keepEitFrames(frame: SmfSampleFrame): void {
    this.eitWidth = frame.width;
    const newest = this.eitFrames[this.eitFrames.length - 1];
    for (let point = 0; point < frame.sampleCount; point++) {
      const timeUs = frame.startTimeUs + (point * 1e6) / frame.sampleRate;
      if (newest !== undefined && timeUs <= newest.timeUs) continue;
      const recycled = this.eitFrames.length >= EIT_FRAMES_KEPT ? this.eitFrames.shift() : undefined;
      const values = recycled?.values.length === frame.width ? recycled.values : new Float32Array(frame.width);
      values.set(frame.values.subarray(point * frame.width, (point + 1) * frame.width));
      this.eitFrames.push({ timeUs, values });
    }
  }

  #notePresses(frame: SmfSampleFrame): void {
    for (let point = 0; point < frame.sampleCount; point++) {
      const value = frame.values[point] as number;
      if (value >= 0.5 && this.#lastButton < 0.5) {
        this.presses.push((frame.startTimeUs + (point * 1e6) / frame.sampleRate) / 1000);
        if (this.presses.length > MAX_PRESSES) this.presses.shift();
      }
      this.#lastButton = value;
    }
  }

  /** The EIT frame shown at device time `timeUs`: the newest one not after it. */
  eitFrameAt(timeUs: number): EitFrameAt | null {
    let found: EitFrameAt | null = null;
    for (const frame of this.eitFrames) {
      if (frame.timeUs > timeUs) break;
      found = frame;
    }
    return found ?? this.eitFrames[0] ?? null;
  }
}
