import { describe, expect, it } from 'vitest';
import { collectionByName } from './documents/collections.ts';
import { alertTypeEnabled, roomAlertSettingsOf, roomAlertSettingsSchema, withRoomNight, withRoomNumbers } from './roomAlertSettings.ts';

const domain = {
  respirationRateLow: 8,
  respirationRateHigh: 25,
  heartRateLow: 45,
  heartRateHigh: 110,
  outOfBedAlertMin: 10,
  noBreathingAlertSec: 20,
  sittingUpAlertSec: 0,
  temperatureHigh: 37.5,
  deviceOfflineMin: 5,
  alertResoundMin: 5,
};

describe('per-room alert settings', () => {
  it('override only what the room sets', () => {
    expect(withRoomNumbers(domain, null)).toBe(domain);
    expect(withRoomNumbers(domain, { numbers: { heartRateHigh: 130, outOfBedAlertMin: null } })).toEqual({ ...domain, heartRateHigh: 130 });
    expect(withRoomNight({ start: 1260, end: 420, timeZone: 'Asia/Tokyo' }, { nightStart: '22:30' })).toEqual({
      start: 1350,
      end: 420,
      timeZone: 'Asia/Tokyo',
    });
    // The early bed-exit alert: a room may switch it on while its domain keeps it off (0), and back off.
    expect(withRoomNumbers(domain, { numbers: { sittingUpAlertSec: 15 } }).sittingUpAlertSec).toBe(15);
    expect(withRoomNumbers({ ...domain, sittingUpAlertSec: 20 }, { numbers: { sittingUpAlertSec: 0 } }).sittingUpAlertSec).toBe(0);
    expect(alertTypeEnabled({ disabledTypes: ['outOfBed'] }, 'outOfBed')).toBe(false);
    expect(alertTypeEnabled({ disabledTypes: ['outOfBed'] }, 'longOutOfBed')).toBe(true);
  });

  it('are checked on every write of the room: ranges of the domain numbers, known types and keys, HH:MM', () => {
    const rooms = collectionByName('rooms');
    const room = (alertSettings: unknown) => rooms?.schema.safeParse({ domainId: 'd', name: 'r', alertSettings }).success;
    expect(room({ disabledTypes: ['button'], numbers: { heartRateHigh: 150 }, nightStart: '20:00', nightEnd: '06:30' })).toBe(true);
    expect(room(null)).toBe(true);
    expect(room({ numbers: { heartRateHigh: 500 } })).toBe(false);
    expect(room({ numbers: { deviceOfflineMin: 1 } })).toBe(false);
    expect(room({ numbers: { sittingUpAlertSec: 0 } })).toBe(true);
    expect(room({ numbers: { sittingUpAlertSec: 301 } })).toBe(false);
    expect(room({ numbers: { sittingUpAlertSec: -1 } })).toBe(false);
    expect(room({ disabledTypes: ['everything'] })).toBe(false);
    expect(room({ nightStart: '25:00' })).toBe(false);
    expect(room({ muted: true })).toBe(false);
    expect(roomAlertSettingsSchema.safeParse({ numbers: { noBreathingAlertSec: 1 } }).success).toBe(false);
    expect(roomAlertSettingsOf('not settings')).toBeNull();
  });
});
