// The reference frame a difference image is taken against. End-expiration (the lungs at their emptiest)
// makes every breath a positive image; the mean makes the image swing around zero.
import { globalImpedance } from './globalImpedance.ts';
import { checkFrameWidth, type EitFrameLayout } from './protocol.ts';

export type EitReferenceMethod = 'endExpiration' | 'mean';

export interface EitReferenceOptions {
  method?: EitReferenceMethod;
  /** End-expiration: average the frames whose global impedance is in this lowest fraction of the window (default 0.2). */
  fraction?: number;
  layout?: EitFrameLayout;
}

/**
 * Writes into `out` (one frame of `width` values) the reference of the frames in `frames` (a whole number
 * of frames of `width` values; their order does not matter, so a ring buffer's storage can be passed as
 * it is). With 'endExpiration' (the default) it averages the frames of lowest global impedance (pass at
 * least two breaths, e.g. the last 10 s); with 'mean', all of them. NaN values are left out of the average.
 */
export function referenceFrame(frames: Float32Array, width: number, out: Float32Array, options: EitReferenceOptions = {}): Float32Array {
  checkFrameWidth(width, 'EIT reference');
  if (frames.length === 0 || frames.length % width !== 0)
    throw new RangeError(`EIT reference: ${frames.length} values are not a whole number (≥ 1) of ${width}-value frames`);
  if (out.length !== width) throw new RangeError(`EIT reference: output has ${out.length} values, expected ${width}`);
  const count = frames.length / width;
  const fraction = options.fraction ?? 0.2;
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`EIT reference: fraction must be in (0, 1], got ${fraction}`);
  let chosen: Uint32Array;
  if ((options.method ?? 'endExpiration') === 'mean') chosen = Uint32Array.from({ length: count }, (_, i) => i);
  else {
    const global = new Float64Array(count);
    for (let f = 0; f < count; f++) global[f] = globalImpedance(frames.subarray(f * width, (f + 1) * width), options.layout);
    const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => global[a]! - global[b]!);
    chosen = order.subarray(0, Math.max(1, Math.round(count * fraction)));
  }
  for (let i = 0; i < width; i++) {
    let sum = 0;
    let used = 0;
    for (const f of chosen) {
      const value = frames[f * width + i]!;
      if (Number.isFinite(value)) {
        sum += value;
        used++;
      }
    }
    out[i] = used > 0 ? sum / used : Number.NaN;
  }
  return out;
}
