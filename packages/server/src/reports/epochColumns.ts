/**
 * A room's per-minute epochs as columns of typed arrays, to hand them to a report thread: a month
 * of a room is ~15,000 small objects, which postMessage copies one by one (~40 ms of the server's
 * thread a room, 4 s for 100 rooms) while typed arrays move whole (transferred, not copied). The
 * records without their epochs stay plain objects (a few fields each). Lossless for what the
 * schema allows (collections.ts `rooms/sleeps` epochs: a state and four numbers, each absent, null
 * or a number).
 */
import type { SleepEpoch, SleepRecord } from '@nemuri/shared/report/roomReport';

const STATES = ['awake', 'light', 'deep', 'rem', 'outOfBed', 'unknown'] as const satisfies readonly SleepEpoch['state'][];
const NUMBERS = ['respirationRate', 'heartRate', 'activity', 'pauses'] as const;
type NumberKey = (typeof NUMBERS)[number];

const STATE_INDEX: Readonly<Record<string, number>> = Object.fromEntries(STATES.map((state, index) => [state, index]));
const NULL = 1;
const VALUE = 2;

export interface PackedSleeps {
  /** The records without `epochs`, by day. */
  days: [string, Omit<SleepRecord, 'epochs'>][];
  /** Per record: where its epochs start in the columns, and how many (-1: no `epochs` at all). */
  starts: Int32Array;
  counts: Int32Array;
  states: Uint8Array;
  /** Per number: 0 absent, NULL or VALUE, and the value. */
  kinds: Uint8Array[];
  values: Float64Array[];
}

export function packSleeps(sleeps: ReadonlyMap<string, SleepRecord>): PackedSleeps {
  let total = 0;
  for (const record of sleeps.values()) total += record.epochs?.length ?? 0;
  const starts = new Int32Array(sleeps.size);
  const counts = new Int32Array(sleeps.size);
  const states = new Uint8Array(total);
  const kinds = NUMBERS.map(() => new Uint8Array(total));
  const values = NUMBERS.map(() => new Float64Array(total));
  const days: PackedSleeps['days'] = [];
  let at = 0;
  let index = 0;
  for (const [day, record] of sleeps) {
    const { epochs, ...rest } = record;
    days.push([day, rest]);
    starts[index] = at;
    counts[index] = epochs === undefined ? -1 : epochs.length;
    for (const epoch of epochs ?? []) {
      states[at] = STATE_INDEX[epoch.state] ?? STATES.length - 1;
      for (let n = 0; n < NUMBERS.length; n++) {
        const value = epoch[NUMBERS[n] as NumberKey];
        if (value === null) (kinds[n] as Uint8Array)[at] = NULL;
        else if (value !== undefined) {
          (kinds[n] as Uint8Array)[at] = VALUE;
          (values[n] as Float64Array)[at] = value;
        }
      }
      at++;
    }
    index++;
  }
  return { days, starts, counts, states, kinds, values };
}

/** The buffers postMessage may move instead of copying. */
export function transferables(packed: PackedSleeps): ArrayBuffer[] {
  return [packed.starts, packed.counts, packed.states, ...packed.kinds, ...packed.values].map((array) => array.buffer as ArrayBuffer);
}

export function unpackSleeps(packed: PackedSleeps): Map<string, SleepRecord> {
  const sleeps = new Map<string, SleepRecord>();
  packed.days.forEach(([day, rest], index) => {
    const count = packed.counts[index] ?? -1;
    if (count < 0) {
      sleeps.set(day, rest as SleepRecord);
      return;
    }
    const start = packed.starts[index] ?? 0;
    const epochs: SleepEpoch[] = [];
    for (let at = start; at < start + count; at++) {
      // Written field by field; a null only ever comes from a field the schema lets be null.
      const epoch: Record<string, unknown> = { state: STATES[packed.states[at] ?? 5] ?? 'unknown' };
      for (let n = 0; n < NUMBERS.length; n++) {
        const kind = packed.kinds[n]?.[at];
        if (kind === NULL) epoch[NUMBERS[n] as NumberKey] = null;
        else if (kind === VALUE) epoch[NUMBERS[n] as NumberKey] = packed.values[n]?.[at];
      }
      epochs.push(epoch as SleepEpoch);
    }
    sleeps.set(day, { ...rest, epochs } as SleepRecord);
  });
  return sleeps;
}
