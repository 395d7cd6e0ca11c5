// Global impedance: the sum of the 208 measurements of a frame, which rises as air fills the lungs.
import { EIT_ELECTRODES, EIT_MEASUREMENTS, checkFrameWidth, type EitFrameLayout } from './protocol.ts';

/** Sum of the 208 usable measurements of one frame of 208 or 256 values (see protocol.ts for `layout`). */
export function globalImpedance(frame: Float32Array, layout: EitFrameLayout = 'device'): number {
  checkFrameWidth(frame.length, 'EIT global impedance');
  let sum = 0;
  if (frame.length === 208 || layout === 'device') {
    for (let m = 0; m < EIT_MEASUREMENTS; m++) sum += frame[m]!;
    return sum;
  }
  // The matrix layout: pair a (electrodes a, a+1) touches drive d's electrodes when a is d−1, d or d+1.
  for (let drive = 0; drive < EIT_ELECTRODES; drive++) {
    for (let pair = 0; pair < EIT_ELECTRODES; pair++) {
      const offset = (pair - drive + EIT_ELECTRODES) % EIT_ELECTRODES;
      if (offset >= 2 && offset <= EIT_ELECTRODES - 2) sum += frame[drive * EIT_ELECTRODES + pair]!;
    }
  }
  return sum;
}
