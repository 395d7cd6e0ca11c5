import type { SmfFrame, SmfSampleFrame } from '@nemuri/parser/smf';
import { describe, expect, it } from 'vitest';
import { envelope, envelopePath, sampleFrames } from './roomSleepRaw.ts';

const frame = (channel: SmfSampleFrame['channel'], startMs: number, values: number[], width = 1, sampleRate = 10): SmfSampleFrame => ({
  version: 1,
  sequence: 0,
  startTimeUs: startMs * 1000,
  byteOffset: 0,
  byteLength: 0,
  crc: 0,
  channel,
  format: 'int16',
  width,
  sampleRate,
  sampleCount: values.length / width,
  scale: 1,
  offset: 0,
  values: new Float32Array(values),
});

describe('raw minute signals', () => {
  it('keeps the frames of the channel, opening multi frames, in time order', () => {
    const ecg = frame('ecg', 2000, [1]);
    const multi: SmfFrame = {
      version: 1,
      sequence: 0,
      startTimeUs: 0,
      byteOffset: 0,
      byteLength: 0,
      crc: 0,
      channel: 'multi',
      frames: [frame('ecg', 1000, [2]), frame('respiAxl', 1000, [0, 0, 0], 3)],
    };
    expect(sampleFrames([ecg, multi], 'ecg').map((f) => f.startTimeUs)).toEqual([1_000_000, 2_000_000]);
  });

  it('reduces samples to a min/max per column, leaving gaps empty', () => {
    // 10 Hz over the first second of a 2-second window of 4 columns: columns 0 and 1 hold 5 samples each.
    const env = envelope([frame('ecg', 0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])], 0, 0, 2000, 4);
    expect([...env.min.slice(0, 2)]).toEqual([0, 5]);
    expect([...env.max.slice(0, 2)]).toEqual([4, 9]);
    expect(Number.isNaN(env.min[2])).toBe(true);
    expect(env.range).toEqual([0, 9]);
    expect(envelopePath(env, 400, 90, [0, 9])).toBe('M50.0 50.0 L50.0 90.0 L150.0 0.0 L150.0 40.0');
  });

  it('reads one component of interleaved accelerometer samples', () => {
    const env = envelope([frame('respiAxl', 0, [1, 10, 100, 2, 20, 200], 3)], 2, 0, 1000, 1);
    expect([env.min[0], env.max[0]]).toEqual([100, 200]);
    expect(envelope([frame('respiAxl', 5000, [1, 2, 3], 3)], 0, 0, 1000, 1).range).toBeNull();
  });
});
