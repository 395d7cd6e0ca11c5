// Life-threatening rhythms spliced into real ECG, for tests and the benchmark. The shared data holds no
// record with a ventricular flutter or fibrillation episode (MIT-BIH 207 and the VF databases are not in
// ../shared/data), so the episodes are modelled after their textbook and database descriptions and set
// into a real record (MIT-BIH 100) between stretches of its own sinus rhythm:
// - flutter (VFL): a regular sine-wave oscillation without distinguishable QRS or T waves at 240–300/min,
//   about 1 mV peak to peak (Goldberger's Clinical Electrocardiography; MIT-BIH 207's VFL episodes);
// - fibrillation (VF): irregular undulations at 4–7 Hz whose rate and amplitude wander (Clayton et al.,
//   "Frequency analysis of human ventricular fibrillation", IEEE TBME 40:1993: dominant 4–7 Hz);
// - asystole with the electrodes on: no QRS, the lead's own noise (~20 µV) and respiratory baseline wander.
// Noise and drift come from a seeded generator: the same seed gives the same samples.
export type Arrhythmia = 'flutter' | 'fibrillation' | 'asystole';

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

/** `seconds` of the rhythm at `sampleRate` (mV). */
export function arrhythmia(kind: Arrhythmia, sampleRate: number, seconds: number, seed = 1): Float32Array {
  const random = seeded(seed);
  const gaussian = (): number => {
    let sum = 0;
    for (let i = 0; i < 6; i++) sum += random();
    return (sum - 3) * Math.SQRT2;
  };
  const out = new Float32Array(Math.round(sampleRate * seconds));
  let frequency = kind === 'flutter' ? 4.5 : 5.5;
  let amplitude = kind === 'flutter' ? 0.5 : 0.35;
  let phase = 0;
  let second = 0;
  for (let i = 0; i < out.length; i++) {
    const t = i / sampleRate;
    const wander = 0.05 * Math.sin(2 * Math.PI * 0.25 * t);
    const noise = 0.02 * gaussian();
    if (kind === 'asystole') out[i] = wander + noise;
    else if (kind === 'flutter') {
      frequency += (4.5 - frequency) * 0.001 + 0.002 * gaussian();
      phase += (2 * Math.PI * frequency) / sampleRate;
      out[i] = 2 * amplitude * Math.sin(phase) + wander + noise;
    } else {
      frequency += (5.5 - frequency) * 0.002 + 0.02 * gaussian();
      amplitude += (0.35 - amplitude) * 0.002 + 0.01 * gaussian();
      phase += (2 * Math.PI * frequency) / sampleRate;
      second += (2 * Math.PI * frequency * 1.6) / sampleRate;
      out[i] = Math.abs(amplitude) * (Math.sin(phase) + 0.5 * Math.sin(second)) + wander + noise;
    }
  }
  return out;
}

/** A copy of `ecg` with `seconds` of the rhythm from `fromSec`. */
export function withEpisode(ecg: Float32Array, sampleRate: number, kind: Arrhythmia, fromSec: number, seconds: number, seed = 1): Float32Array {
  const copy = Float32Array.from(ecg);
  const from = Math.round(fromSec * sampleRate);
  const episode = arrhythmia(kind, sampleRate, seconds, seed);
  // Level with the record's baseline where the episode begins, so that no step enters with it.
  let base = 0;
  const span = Math.min(from, Math.round(sampleRate));
  for (let i = from - span; i < from; i++) base += ecg[i]!;
  base = span > 0 ? base / span : 0;
  for (let i = 0; i < episode.length && from + i < copy.length; i++) copy[from + i] = episode[i]! + base;
  return copy;
}
