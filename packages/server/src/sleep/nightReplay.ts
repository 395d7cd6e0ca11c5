/**
 * A stored night replayed through the same room-state estimator the live monitoring runs, second by
 * second, into per-minute epochs and the sleep-day record (`@nemuri/analysis/sleep`): the morning's
 * record agrees with what the nurse station saw during the night, and replaying the same frames gives
 * the same record. Frames come in time slices (an hour at a time keeps memory small); a frame is given
 * to the estimator at the second its last sample is in, as it would have arrived live.
 */
import type { SmfSampleFrame } from '@nemuri/parser/smf';
import { RoomStateEstimator } from '@nemuri/analysis/roomState';
import { analyzeSleepDay, EpochRecorder, EPOCH_MS, type NightEpochs, type SleepRecord } from '@nemuri/analysis/sleep';

const SECOND_MS = 1000;

/** What the replay reads of a frame: an SMF frame, or samples of an imported file cut the same way. */
export type ReplayFrame = Pick<SmfSampleFrame, 'channel' | 'startTimeUs' | 'sampleRate' | 'sampleCount' | 'values' | 'width'>;

interface Timed {
  endMs: number;
  frame: ReplayFrame;
}

export class NightReplay {
  readonly #estimator = new RoomStateEstimator();
  readonly #recorder: EpochRecorder;
  readonly #endMs: number;
  #nextMs: number;
  /** Frames received but not yet due (they end after the replayed time). */
  #waiting: Timed[] = [];
  frames = 0;

  constructor(startMs: number, endMs: number) {
    this.#recorder = new EpochRecorder(startMs, Math.round((endMs - startMs) / EPOCH_MS));
    this.#endMs = endMs;
    this.#nextMs = startMs + SECOND_MS;
  }

  /** Adds the frames that start before `untilMs` and replays every second up to it. */
  add(frames: readonly ReplayFrame[], untilMs: number): void {
    for (const frame of frames) {
      if (!(frame.sampleRate > 0) || frame.sampleCount === 0) continue;
      const startMs = frame.startTimeUs / 1000;
      this.#waiting.push({ endMs: startMs + (frame.sampleCount * SECOND_MS) / frame.sampleRate, frame });
      this.frames++;
    }
    this.#waiting.sort((a, b) => a.endMs - b.endMs || a.frame.startTimeUs - b.frame.startTimeUs);
    this.#replayTo(Math.min(untilMs, this.#endMs));
  }

  #replayTo(untilMs: number): void {
    let next = 0;
    for (; this.#nextMs <= untilMs; this.#nextMs += SECOND_MS) {
      const now = this.#nextMs;
      while (next < this.#waiting.length && (this.#waiting[next] as Timed).endMs <= now) {
        const { frame } = this.#waiting[next] as Timed;
        this.#estimator.push(frame.channel, frame.startTimeUs / 1000, frame.sampleRate, frame.values, frame.width);
        next++;
      }
      this.#recorder.add({ ...this.#estimator.evaluate(now), at: now - SECOND_MS });
    }
    this.#waiting = this.#waiting.slice(next);
  }

  /** Replays to the end of the night and scores it. */
  finish(source: string): SleepRecord {
    return analyzeSleepDay(this.finishEpochs(), source);
  }

  /** Replays to the end of the night: its per-minute epochs, not yet scored. */
  finishEpochs(): NightEpochs {
    this.#replayTo(this.#endMs);
    this.#recorder.finish();
    return this.#recorder.epochs;
  }
}
