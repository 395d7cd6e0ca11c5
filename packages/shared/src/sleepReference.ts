/**
 * Reference ranges for the sleep-day metrics of PRODUCT.md section 5, shared by the room result
 * screen and the reports so both judge a night by the same numbers.
 *
 * Sources (older adults, as the product serves care facilities first):
 * - Efficiency, latency, WASO, awakenings: M. M. Ohayon et al., "National Sleep Foundation's sleep
 *   quality recommendations: first report", Sleep Health 3(1):6–19, 2017 — good sleep quality for
 *   people 65 and over: efficiency ≥ 85 %, latency ≤ 30 min, WASO ≤ 30 min, ≤ 2 awakenings > 5 min
 *   (used here for the trips out of bed, each of which is such an awakening).
 * - Total sleep: M. Hirshkowitz et al., "National Sleep Foundation's sleep time duration
 *   recommendations", Sleep Health 1(1):40–43, 2015 — 7–8 hours recommended for 65 and over.
 * - Breathing pauses: AASM, International Classification of Sleep Disorders, 3rd ed., 2014 — an
 *   apnea(-hypopnea) index below 5 per hour is normal (the bound is inclusive here like every other,
 *   so a night at exactly 5.0 still counts as within; the records keep one decimal).
 * - Respiration rate: the adult resting range of 12–20 breaths/min used in clinical vital-sign
 *   charts (e.g. the Royal College of Physicians' NEWS2, 2017, scores 12–20 as normal).
 * - Heart rate: resting adults 60–100 beats/min (American Heart Association); heart rate falls by
 *   about a tenth in sleep, so the lower bound is set to 50.
 */

export const SLEEP_REFERENCE_KEYS = [
  'totalSleepMin',
  'sleepEfficiency',
  'sleepLatencyMin',
  'wasoMin',
  'outOfBedCount',
  'respirationRate',
  'heartRate',
  'apneaIndex',
] as const;
export type SleepReferenceKey = (typeof SLEEP_REFERENCE_KEYS)[number];

export interface SleepReferenceRange {
  /** Inclusive lower bound, when there is one. */
  min?: number;
  /** Inclusive upper bound, when there is one. */
  max?: number;
  /** The unit the bounds are in (the record's unit). */
  unit: 'min' | '%' | 'count' | '/min' | 'bpm' | '/h';
}

export const SLEEP_REFERENCE_RANGES: Readonly<Record<SleepReferenceKey, SleepReferenceRange>> = {
  totalSleepMin: { min: 420, max: 480, unit: 'min' },
  sleepEfficiency: { min: 85, unit: '%' },
  sleepLatencyMin: { max: 30, unit: 'min' },
  wasoMin: { max: 30, unit: 'min' },
  outOfBedCount: { max: 2, unit: 'count' },
  respirationRate: { min: 12, max: 20, unit: '/min' },
  heartRate: { min: 50, max: 100, unit: 'bpm' },
  apneaIndex: { max: 5, unit: '/h' },
};

/** Whether a value lies in the metric's reference range (bounds included). */
export function withinReference(key: SleepReferenceKey, value: number): boolean {
  const range = SLEEP_REFERENCE_RANGES[key];
  return (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
}
