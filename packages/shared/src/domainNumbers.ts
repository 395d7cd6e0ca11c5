/**
 * The alert numbers a domain sets (PRODUCT.md section 5, `domains.numbers`): for each, its unit,
 * the range a facility may choose from and the Japanese label. One table for the domain
 * configuration screen and the maker's parameter list, so that both show the same ranges. The
 * defaults live with the alert engine (packages/analysis/src/alerts.ts DEFAULT_ALERT_NUMBERS).
 */
export const ALERT_NUMBER_KEYS = [
  'respirationRateLow',
  'respirationRateHigh',
  'heartRateLow',
  'heartRateHigh',
  'outOfBedAlertMin',
  'noBreathingAlertSec',
  'temperatureHigh',
  'deviceOfflineMin',
  'alertResoundMin',
  'sittingUpAlertSec',
] as const;

export type AlertNumberKey = (typeof ALERT_NUMBER_KEYS)[number];

export interface AlertNumberSpec {
  key: AlertNumberKey;
  unit: string;
  min: number;
  max: number;
  step: number;
  /** What the number is, in Japanese (the parameter list's description). */
  label: string;
  /** The device type the number concerns, when only one does (body temperature: the chest sensor). */
  deviceTypeId?: string;
}

export const ALERT_NUMBER_SPECS: readonly AlertNumberSpec[] = [
  { key: 'respirationRateLow', unit: '回/分', min: 0, max: 30, step: 1, label: '呼吸数低下アラートの既定値' },
  { key: 'respirationRateHigh', unit: '回/分', min: 10, max: 60, step: 1, label: '呼吸数上昇アラートの既定値' },
  { key: 'heartRateLow', unit: '回/分', min: 20, max: 80, step: 1, label: '心拍数低下アラートの既定値' },
  { key: 'heartRateHigh', unit: '回/分', min: 60, max: 200, step: 1, label: '心拍数上昇アラートの既定値' },
  { key: 'outOfBedAlertMin', unit: '分', min: 0, max: 120, step: 1, label: '離床アラートまでの時間の既定値' },
  { key: 'noBreathingAlertSec', unit: '秒', min: 5, max: 120, step: 1, label: '無呼吸アラートまでの時間の既定値' },
  { key: 'temperatureHigh', unit: '℃', min: 36, max: 42, step: 0.1, label: '体表温度上昇アラートの既定値', deviceTypeId: 'nemuri-chest' },
  { key: 'deviceOfflineMin', unit: '分', min: 1, max: 60, step: 1, label: '通信途絶アラートまでの時間の既定値' },
  {
    key: 'alertResoundMin',
    unit: '分',
    min: 1,
    max: 60,
    step: 1,
    label: '続いているアラートを再び鳴らすまでの時間の既定値（未確認のまま、または確認してから）',
  },
  { key: 'sittingUpAlertSec', unit: '秒', min: 0, max: 300, step: 1, label: '起きあがり（離床前の早期）アラートまでの時間の既定値（0で通知しない）' },
];

export function alertNumberSpec(key: AlertNumberKey): AlertNumberSpec {
  const found = ALERT_NUMBER_SPECS.find((spec) => spec.key === key);
  if (found === undefined) throw new Error(`no alert number ${key}`);
  return found;
}

/** Night window times are `HH:MM` on a 24-hour clock. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
