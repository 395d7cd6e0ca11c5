// Whether an ECG window shows a normal heart rhythm, a life-threatening one, or no electrode contact.
// The room-state estimator asks this every second of a person in bed whose heartbeat it cannot find, so
// that a failing heart is never read as an empty bed (issue 19) and raises 心拍異常 instead.
//
// - Ventricular flutter and fibrillation: the VF filter leakage of S. Kuo and R. Dillman, "Computer
//   detection of ventricular fibrillation", Computers in Cardiology 1978:347–349, as evaluated by
//   A. Amann, R. Tratnig and K. Unterkofler, "Reliability of old and new ventricular fibrillation
//   detection algorithms for automated external defibrillators", BioMedical Engineering OnLine 4:60, 2005
//   (and I. Jekova, Physiol Meas 21:429, 2000): flutter and fibrillation are nearly sinusoidal, so the
//   signal plus itself shifted by half its mean period nearly cancels; QRS complexes do not. The mean
//   period is T = 2π Σ|x| / Σ|Δx| samples; leakage l = Σ|xᵢ + xᵢ₋ₜ/₂| / Σ(|xᵢ| + |xᵢ₋ₜ/₂|); VF when
//   l < 0.406 (Amann's threshold). Measured here over 4 s at 1–30 Hz: every second of the five MIT-BIH
//   records in the shared data (sinus, paced, noisy, ectopic) 0.61–0.88; sinusoidal flutter ~0.02,
//   fibrillation ~0.3.
// - Asystole: no QRS complex for ASYSTOLE_SEC (the PhysioNet/CinC Challenge 2015 asystole definition: no
//   beat for at least 4 s) on a flat line that is not a detached lead: less than CONTACT_ACTIVITY_MV of
//   activity. A lead with activity but no beat found (MIT-BIH 116, whose QRS shrinks fiftyfold for a few
//   seconds) is an undetected rhythm, not asystole.
// - Leads off: the ECG front end reports a detached electrode as a flat line (the output held at a rail or
//   blanked), which a body never gives: thermal and muscle noise alone move a contacting lead by more
//   than FLAT_RANGE_MV. This, not a missing heart rate, is what says the electrodes came off.
import { bandPass, filterZeroPhase, selectKth } from './filters.ts';
import type { HeartRateEstimate } from './heartRate.ts';

/** Kuo & Dillman's VF filter leakage below which the window is flutter or fibrillation (Amann et al. 2005). */
export const VF_LEAKAGE_THRESHOLD = 0.406;
/** No QRS for this long with the electrodes on is asystole. */
export const ASYSTOLE_SEC = 4;
/** A lead whose whole range over FLAT_WINDOW_SEC stays within this (mV) is detached. */
export const FLAT_RANGE_MV = 0.01;
export const FLAT_WINDOW_SEC = 2;
/** The window the leakage is measured on: four seconds hold a dozen flutter waves, as AED analyses do. */
export const RHYTHM_WINDOW_SEC = 4;
/**
 * Electrical activity (5th–95th percentile range of the 1–30 Hz band, mV) that only a body gives: a
 * detached lead is flat or carries tens of µV of noise; fibrillation waves are several tenths of a mV.
 */
export const CONTACT_ACTIVITY_MV = 0.1;
/**
 * Detected complexes whose median height stands less than this far above the background (the QRS
 * detector's `prominence`) are noise, not beats: real QRS complexes stand tens to hundreds above it.
 */
export const QRS_PROMINENCE_MIN = 3;

export interface RhythmReading {
  /** The electrodes are off: the lead is flat. */
  leadOff: boolean;
  /** 5th–95th percentile range of the 1–30 Hz band over the rhythm window (mV). */
  activity: number;
  /** Kuo & Dillman's VF filter leakage over the rhythm window (1 for a flat window). */
  leakage: number;
  /** Flutter or fibrillation: low leakage with real electrical activity. */
  fibrillation: boolean;
  /** No QRS complex for ASYSTOLE_SEC (electrodes on). */
  asystole: boolean;
}

/** VF filter leakage of a zero-mean, band-passed window (Kuo & Dillman 1978). */
export function vfFilterLeakage(x: ArrayLike<number>): number {
  let magnitude = 0;
  let change = 0;
  for (let i = 0; i < x.length; i++) {
    magnitude += Math.abs(x[i]!);
    if (i > 0) change += Math.abs(x[i]! - x[i - 1]!);
  }
  if (!(change > 0)) return 1;
  // Half the mean period: T/2 = π Σ|x| / Σ|Δx|.
  const half = Math.max(1, Math.round((Math.PI * magnitude) / change));
  let leak = 0;
  let total = 0;
  for (let i = half; i < x.length; i++) {
    leak += Math.abs(x[i]! + x[i - half]!);
    total += Math.abs(x[i]!) + Math.abs(x[i - half]!);
  }
  return total > 0 ? leak / total : 1;
}

/** Reads the rhythm of ECG windows; arrays are reused from one call to the next (one per room). */
export class RhythmReader {
  #band = new Float64Array(0);
  /** A copy of the band the percentiles reorder. */
  #scratch = new Float64Array(0);

  /**
   * The 5th–95th percentile range of the window: two quickselects on a copy, not a sort (this runs every
   * second of every monitored room whose heartbeat the device does not report, and of every imported night).
   */
  #percentileRange(band: Float64Array, m: number): number {
    const values = this.#scratch;
    values.set(band);
    const high = Math.floor(0.95 * (m - 1));
    const low = Math.floor(0.05 * (m - 1));
    const top = selectKth(values, high, m);
    // Everything before `high` is now at most `top`: the 5th percentile is among them.
    return top - (low < high ? selectKth(values, low, high) : top);
  }

  /**
   * `ecg`: the newest seconds of the lead (mV) at `sampleRate`, at least RHYTHM_WINDOW_SEC; `qrs`: the QRS
   * detector's estimate over the same window (heartRate.ts).
   */
  read(ecg: ArrayLike<number>, sampleRate: number, qrs: HeartRateEstimate): RhythmReading {
    const n = ecg.length;
    const flatFrom = Math.max(0, n - Math.round(FLAT_WINDOW_SEC * sampleRate));
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (let i = flatFrom; i < n; i++) {
      low = Math.min(low, ecg[i]!);
      high = Math.max(high, ecg[i]!);
    }
    const leadOff = high - low <= FLAT_RANGE_MV;

    const m = Math.min(n, Math.round(RHYTHM_WINDOW_SEC * sampleRate));
    if (this.#band.length !== m) {
      this.#band = new Float64Array(m);
      this.#scratch = new Float64Array(m);
    }
    const band = this.#band;
    let sum = 0;
    for (let i = 0; i < m; i++) sum += ecg[n - m + i]!;
    for (let i = 0; i < m; i++) band[i] = ecg[n - m + i]! - sum / m;
    filterZeroPhase(band, bandPass(1, Math.min(30, sampleRate * 0.4), sampleRate));
    const activity = m > 0 ? this.#percentileRange(band, m) : 0;
    const leakage = leadOff ? 1 : vfFilterLeakage(band);
    const lastBeatAge = qrs.beats > 0 && qrs.prominence >= QRS_PROMINENCE_MIN ? (n - qrs.lastPeak) / sampleRate : Number.POSITIVE_INFINITY;
    return {
      leadOff,
      activity,
      leakage,
      fibrillation: !leadOff && activity >= CONTACT_ACTIVITY_MV && leakage < VF_LEAKAGE_THRESHOLD,
      asystole: !leadOff && n >= ASYSTOLE_SEC * sampleRate && lastBeatAge > ASYSTOLE_SEC && activity < CONTACT_ACTIVITY_MV,
    };
  }
}
