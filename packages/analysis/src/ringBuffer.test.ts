import { describe, expect, it } from 'vitest';
import { SampleRing } from './ringBuffer.ts';

describe('SampleRing', () => {
  it('keeps the newest samples in time order across wrap-around', () => {
    const ring = new SampleRing(4, 2);
    ring.write(Float32Array.from([1, 10, 2, 20, 3, 30]));
    ring.write(Float32Array.from([4, 40, 5, 50]));
    expect(ring.length).toBe(4);
    const out = new Float32Array(8);
    expect(ring.copyLatest(4, out)).toBe(4);
    expect(Array.from(out)).toEqual([2, 20, 3, 30, 4, 40, 5, 50]);
    expect(ring.copyLatest(2, out)).toBe(2);
    expect(Array.from(out.subarray(0, 4))).toEqual([4, 40, 5, 50]);
  });

  it('keeps only the tail of a write longer than its capacity, and empties on clear', () => {
    const ring = new SampleRing(3);
    ring.write(Float32Array.from([1, 2, 3, 4, 5]));
    const out = new Float32Array(3);
    ring.copyLatest(3, out);
    expect(Array.from(out)).toEqual([3, 4, 5]);
    ring.clear();
    expect(ring.length).toBe(0);
  });
});
