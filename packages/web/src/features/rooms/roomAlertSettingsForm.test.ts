import { describe, expect, it } from 'vitest';
import { ALERT_TYPE_NAMES } from '@nemuri/shared/monitoring';
import { alertSettingsFieldOf, alertSettingsValuesOf, overrideCount } from './roomAlertSettingsForm.ts';

describe("the room form's alert settings", () => {
  it('store nothing while the room follows its domain', () => {
    const values = alertSettingsValuesOf(null);
    expect(values.enabledTypes).toEqual([...ALERT_TYPE_NAMES]);
    expect(alertSettingsFieldOf(values)).toBeNull();
    expect(overrideCount(values)).toBe(0);
  });

  it('store only what differs, and read back as they were', () => {
    const values = alertSettingsValuesOf(null);
    values.enabledTypes = values.enabledTypes.filter((type) => type !== 'outOfBed');
    values.numbers.heartRateHigh = 130;
    values.numbers.outOfBedAlertMin = ' 3 ';
    values.nightStart = '22:00';
    const field = alertSettingsFieldOf(values);
    expect(field).toEqual({ disabledTypes: ['outOfBed'], numbers: { heartRateHigh: 130, outOfBedAlertMin: 3 }, nightStart: '22:00' });
    expect(overrideCount(values)).toBe(4);
    expect(alertSettingsFieldOf(alertSettingsValuesOf(field))).toEqual(field);
  });
});
