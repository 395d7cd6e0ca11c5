/**
 * The sleep days a recording's signals cover, each replayed through the live room-state estimator
 * (sleep/nightReplay.ts) as the morning's analysis does for stored signals: an imported night is scored
 * exactly like a monitored one. Frames go to the sleep day they start in; each day is replayed as the
 * recording moves past it, so memory holds only the frames not yet due.
 */
import { analyzeSleepDay, type NightEpochs, type SleepRecord } from '@nemuri/analysis/sleep';
import { NightReplay, type ReplayFrame } from '../sleep/nightReplay.ts';
import { sleepDayOf, sleepDayRange, type SleepDayRule } from '../sleep/sleepDay.ts';

export class SignalNights {
  readonly #rule: SleepDayRule;
  readonly #nights = new Map<string, NightReplay>();
  readonly #dayOfStart = new Map<number, string>();

  constructor(rule: SleepDayRule) {
    this.#rule = rule;
  }

  /** Adds frames (any order within a slice) and replays every day up to `untilMs`. */
  add(frames: readonly ReplayFrame[], untilMs: number): void {
    const byDay = new Map<string, ReplayFrame[]>();
    for (const frame of frames) {
      const day = this.#dayOf(frame.startTimeUs / 1000);
      let list = byDay.get(day);
      if (list === undefined) byDay.set(day, (list = []));
      list.push(frame);
    }
    for (const day of byDay.keys()) this.#night(day);
    for (const [day, night] of this.#nights) night.add(byDay.get(day) ?? [], untilMs);
  }

  /** Scores every day seen: day → record. */
  finish(source: string): Map<string, SleepRecord> {
    const records = new Map<string, SleepRecord>();
    for (const [day, epochs] of this.finishEpochs()) records.set(day, analyzeSleepDay(epochs, source));
    return records;
  }

  /** Every day seen, replayed to its end: day → its per-minute epochs, not yet scored. */
  finishEpochs(): Map<string, NightEpochs> {
    const epochs = new Map<string, NightEpochs>();
    for (const [day, night] of [...this.#nights].sort(([a], [b]) => a.localeCompare(b))) epochs.set(day, night.finishEpochs());
    return epochs;
  }

  /** Sleep days seen so far. */
  get days(): string[] {
    return [...this.#nights.keys()].sort();
  }

  #dayOf(ms: number): string {
    // Frames come a second at a time: the day of each whole minute is looked up once.
    const minute = Math.floor(ms / 60_000);
    let day = this.#dayOfStart.get(minute);
    if (day === undefined) {
      day = sleepDayOf(ms, this.#rule);
      if (this.#dayOfStart.size > 10_000) this.#dayOfStart.clear();
      this.#dayOfStart.set(minute, day);
    }
    return day;
  }

  #night(day: string): NightReplay {
    let night = this.#nights.get(day);
    if (night === undefined) {
      const { startMs, endMs } = sleepDayRange(day, this.#rule);
      night = new NightReplay(startMs, endMs);
      this.#nights.set(day, night);
    }
    return night;
  }
}
