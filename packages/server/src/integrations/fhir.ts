/**
 * A room's nightly sleep records as HL7 FHIR R4 Observations (https://hl7.org/fhir/R4/observation.html),
 * in a `collection` Bundle, so that care-record software can import them. Measures with a LOINC code
 * carry it (heart rate 8867-4 and respiratory rate 9279-1 with the vital-signs category and UCUM
 * `/min`, as the R4 vital-signs profile asks; sleep duration 93832-4); the others carry a code of
 * our own system, SLEEP_CODE_SYSTEM. Rates are the night's mean, with its minimum and maximum as
 * components. The subject is the room (the product keeps no patient records): an identifier and its
 * name, never the resident's name.
 */
import { createHash } from 'node:crypto';
import type { FhirBundle, FhirCoding, FhirObservation, FhirQuantity } from '@nemuri/shared/fhir';

export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
/** Our measures without a LOINC code. */
export const SLEEP_CODE_SYSTEM = 'urn:nemuri-monitor:fhir:sleep-measure';
export const ROOM_IDENTIFIER_SYSTEM = 'urn:nemuri-monitor:room';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** What the export reads of a sleep record (collections.ts sleepSchema). */
export interface SleepRecord {
  day: string;
  bedTime?: string | null;
  outOfBedTime?: string | null;
  finalWake?: string | null;
  updatedAt?: string | null;
  totalSleepMin?: number | null;
  timeInBedMin?: number | null;
  sleepEfficiency?: number | null;
  sleepLatencyMin?: number | null;
  wasoMin?: number | null;
  awakenings?: number | null;
  outOfBedCount?: number | null;
  apneaIndex?: number | null;
  respirationRate?: { avg?: number | null; min?: number | null; max?: number | null } | null;
  heartRate?: { avg?: number | null; min?: number | null; max?: number | null } | null;
}

export interface RoomRef {
  id: string;
  name: string;
}

interface Measure {
  key: string;
  coding: FhirCoding;
  vitalSign: boolean;
  unit: Omit<FhirQuantity, 'value'>;
  value(record: SleepRecord): number | null | undefined;
  range?(record: SleepRecord): { min?: number | null; max?: number | null } | null | undefined;
}

const PER_MIN = { unit: '/min', system: UCUM, code: '/min' };
const MINUTES = { unit: 'min', system: UCUM, code: 'min' };
const PERCENT = { unit: '%', system: UCUM, code: '%' };
const COUNT = { unit: '{count}', system: UCUM, code: '{count}' };
const PER_HOUR = { unit: '/h', system: UCUM, code: '/h' };
const local = (code: string, display: string): FhirCoding => ({ system: SLEEP_CODE_SYSTEM, code, display });

export const MEASURES: readonly Measure[] = [
  {
    key: 'sleep-duration',
    coding: { system: LOINC, code: '93832-4', display: 'Sleep duration' },
    vitalSign: false,
    unit: MINUTES,
    value: (r) => r.totalSleepMin,
  },
  { key: 'sleep-efficiency', coding: local('sleep-efficiency', 'Sleep efficiency'), vitalSign: false, unit: PERCENT, value: (r) => r.sleepEfficiency },
  { key: 'time-in-bed', coding: local('time-in-bed', 'Time in bed'), vitalSign: false, unit: MINUTES, value: (r) => r.timeInBedMin },
  { key: 'sleep-latency', coding: local('sleep-latency', 'Sleep onset latency'), vitalSign: false, unit: MINUTES, value: (r) => r.sleepLatencyMin },
  { key: 'waso', coding: local('waso', 'Wake after sleep onset'), vitalSign: false, unit: MINUTES, value: (r) => r.wasoMin },
  { key: 'awakenings', coding: local('awakenings', 'Awakenings'), vitalSign: false, unit: COUNT, value: (r) => r.awakenings },
  { key: 'out-of-bed-count', coding: local('out-of-bed-count', 'Times out of bed'), vitalSign: false, unit: COUNT, value: (r) => r.outOfBedCount },
  { key: 'apnea-index', coding: local('apnea-index', 'Breathing pauses per hour of sleep'), vitalSign: false, unit: PER_HOUR, value: (r) => r.apneaIndex },
  {
    key: 'respiratory-rate',
    coding: { system: LOINC, code: '9279-1', display: 'Respiratory rate' },
    vitalSign: true,
    unit: PER_MIN,
    value: (r) => r.respirationRate?.avg,
    range: (r) => r.respirationRate,
  },
  {
    key: 'heart-rate',
    coding: { system: LOINC, code: '8867-4', display: 'Heart rate' },
    vitalSign: true,
    unit: PER_MIN,
    value: (r) => r.heartRate?.avg,
    range: (r) => r.heartRate,
  },
];

const VITAL_SIGNS = { coding: [{ system: OBSERVATION_CATEGORY, code: 'vital-signs', display: 'Vital Signs' }] };
const ACTIVITY = { coding: [{ system: OBSERVATION_CATEGORY, code: 'activity', display: 'Activity' }] };

/** A stable id (FHIR id: [A-Za-z0-9\-.]{1,64}) so that an importer sees the same night's measure as the same resource. */
function resourceId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
}

function asUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
const rounded = (value: number): number => Math.round(value * 100) / 100;

/** The night's period: in bed to out of bed, else the day's noon to noon (the record's night). */
function periodOf(record: SleepRecord): { start: string; end: string } {
  const start = record.bedTime ?? null;
  const end = record.outOfBedTime ?? record.finalWake ?? null;
  if (start !== null && end !== null && start <= end) return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  const noon = Date.parse(`${record.day}T12:00:00Z`);
  return { start: new Date(noon - 86_400_000).toISOString(), end: new Date(noon).toISOString() };
}

export function observationsOf(room: RoomRef, record: SleepRecord): FhirObservation[] {
  const observations: FhirObservation[] = [];
  for (const measure of MEASURES) {
    const value = measure.value(record);
    if (!finite(value)) continue;
    const observation: FhirObservation = {
      resourceType: 'Observation',
      id: resourceId(room.id, record.day, measure.key),
      status: 'final',
      category: [measure.vitalSign ? VITAL_SIGNS : ACTIVITY],
      code: { coding: [measure.coding], text: measure.coding.display },
      subject: { identifier: { system: ROOM_IDENTIFIER_SYSTEM, value: room.id }, display: room.name },
      effectivePeriod: periodOf(record),
      ...(record.updatedAt ? { issued: new Date(record.updatedAt).toISOString() } : {}),
      valueQuantity: { value: rounded(value), ...measure.unit },
    };
    const range = measure.range?.(record);
    const extremes: { code: string; word: string; value: number }[] = [];
    if (finite(range?.min)) extremes.push({ code: 'min', word: 'minimum', value: range.min });
    if (finite(range?.max)) extremes.push({ code: 'max', word: 'maximum', value: range.max });
    if (extremes.length > 0) {
      observation.component = extremes.map(({ code, word, value: extreme }) => {
        const text = `${measure.coding.display}, night ${word}`;
        return { code: { coding: [local(`${measure.key}-${code}`, text)], text }, valueQuantity: { value: rounded(extreme), ...measure.unit } };
      });
    }
    observations.push(observation);
  }
  return observations;
}

export function observationBundle(room: RoomRef, records: readonly SleepRecord[], now: Date): FhirBundle {
  const resources = records.flatMap((record) => observationsOf(room, record));
  return {
    resourceType: 'Bundle',
    id: resourceId(room.id, ...records.map((record) => record.day), now.toISOString()),
    type: 'collection',
    timestamp: now.toISOString(),
    ...(resources.length === 0 ? {} : { entry: resources.map((resource) => ({ fullUrl: `urn:uuid:${asUuid(resource.id)}`, resource })) }),
  };
}
