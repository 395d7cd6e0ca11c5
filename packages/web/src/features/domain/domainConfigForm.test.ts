import { ALERT_NUMBER_SPECS } from '@nemuri/shared/domainNumbers';
import { DEFAULT_ALERT_NUMBERS } from '@nemuri/analysis/alerts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { describe, expect, it } from 'vitest';
import ja from '../../locales/ja.json';
import en from '../../locales/en.json';
import { invitationStateOf, mayWriteStaff, type Invitation } from './api/domainConfigApi.ts';
import {
  basicValuesOf,
  datesValuesOf,
  numbersValuesOf,
  validateBasic,
  validateDates,
  validateNumbers,
  type BasicValues,
  type ValidationRule,
} from './domainConfigForm.ts';

const basic = (changes: Partial<BasicValues> = {}): BasicValues => ({ ...basicValuesOf(null), name: 'ひだまり苑', ...changes });
const claims = (accessLevel: number) => ({ uid: 'me', accessLevel, domainId: 'd1', rootDomainId: 'd1' });

describe('domain configuration forms', () => {
  it('turns basic information into record fields, trimmed, with the location as a GeoPoint', () => {
    const checked = validateBasic(
      basic({ nameKana: ' ヒダマリエン ', postalCode: '100-0005', prefecture: '東京都', phone: '03-1234-5678', latitude: 35.68, longitude: '139.76' }),
    );
    expect(checked).toEqual({
      ok: true,
      fields: {
        name: 'ひだまり苑',
        nameKana: 'ヒダマリエン',
        address: { postalCode: '100-0005', prefecture: '東京都', city: null, line: null },
        phone: '03-1234-5678',
        location: { latitude: 35.68, longitude: 139.76 },
      },
    });
    expect(validateBasic(basic()).ok && validateBasic(basic())).toMatchObject({ fields: { location: null } });
  });

  it('finds the problems the server would refuse, and the screen’s own formats', () => {
    const checked = validateBasic(basic({ name: '  ', latitude: 91, longitude: '', postalCode: '1234', phone: 'abc' }));
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems).toEqual({
      name: { rule: 'required', params: {} },
      latitude: { rule: 'range', params: { minimum: -90, maximum: 90, unit: '' } },
      longitude: { rule: 'required', params: {} },
      postalCode: { rule: 'postalCode', params: {} },
      phone: { rule: 'phone', params: {} },
    });
  });

  it('checks the night window and the dates against the schema', () => {
    expect(validateDates({ sleepDayBoundaryHour: 12, nightStart: '22:30', nightEnd: '06:00', reportClosingDay: '' })).toEqual({
      ok: true,
      fields: { dates: { sleepDayBoundaryHour: 12, nightStart: '22:30', nightEnd: '06:00', reportClosingDay: undefined } },
    });
    const checked = validateDates({ sleepDayBoundaryHour: 24, nightStart: '25:00', nightEnd: '7時', reportClosingDay: 1.5 });
    expect(checked.ok ? null : checked.problems).toEqual({
      sleepDayBoundaryHour: { rule: 'max', params: { maximum: 23 } },
      reportClosingDay: { rule: 'integer', params: {} },
      nightStart: { rule: 'time', params: {} },
      nightEnd: { rule: 'time', params: {} },
    });
  });

  it('holds every alert number to its range, and leaves an empty one to the default', () => {
    const values = numbersValuesOf(null);
    expect(Object.keys(values)).toEqual(ALERT_NUMBER_SPECS.map((spec) => spec.key));
    for (const spec of ALERT_NUMBER_SPECS) expect(DEFAULT_ALERT_NUMBERS[spec.key]).toBeGreaterThanOrEqual(spec.min);
    const ok = validateNumbers({ ...values, heartRateHigh: 120, temperatureHigh: 37.8 });
    expect(ok).toEqual({ ok: true, fields: { numbers: expect.objectContaining({ heartRateHigh: 120, temperatureHigh: 37.8, alertResoundMin: undefined }) } });
    const checked = validateNumbers({ ...values, heartRateHigh: 250, alertResoundMin: 0, noBreathingAlertSec: 'x' });
    expect(checked.ok ? null : checked.problems).toEqual({
      noBreathingAlertSec: { rule: 'number', params: {} },
      alertResoundMin: { rule: 'min', params: { minimum: 0 } },
      heartRateHigh: { rule: 'range', params: { minimum: 60, maximum: 200, unit: '回/分' } },
    });
    expect(datesValuesOf(null)).toEqual({ sleepDayBoundaryHour: '', nightStart: '', nightEnd: '', reportClosingDay: '' });
  });

  it('words every rule in Japanese and English', () => {
    const rules: ValidationRule[] = ['required', 'number', 'integer', 'min', 'max', 'range', 'tooShort', 'email', 'time', 'postalCode', 'phone', 'invalid'];
    for (const rule of rules) {
      expect(ja.domainConfig.validation[rule]).toContain('{{field}}');
      expect(en.domainConfig.validation[rule]).toContain('{{field}}');
    }
    for (const spec of ALERT_NUMBER_SPECS) expect(ja.domainConfig.fields[spec.key]).toBeTruthy();
  });

  it('follows the staff rules: an administrator edits and grants only below level 3, nobody above their own level', () => {
    const staff = { accessLevel: ROLE_LEVELS.generalStaff };
    const admin = { accessLevel: ROLE_LEVELS.administrator };
    expect(mayWriteStaff(claims(3), staff, ROLE_LEVELS.individualUser)).toBe(true);
    expect(mayWriteStaff(claims(3), staff, ROLE_LEVELS.administrator)).toBe(false);
    expect(mayWriteStaff(claims(3), admin)).toBe(false);
    expect(mayWriteStaff(claims(4), admin, ROLE_LEVELS.privilegeAdministrator)).toBe(true);
    expect(mayWriteStaff(claims(4), staff, ROLE_LEVELS.ownerAdministrator)).toBe(false);
    expect(mayWriteStaff(claims(5), null, ROLE_LEVELS.ownerAdministrator)).toBe(true);
  });

  it('tells an invitation’s state', () => {
    const invitation = (fields: Partial<Invitation>): Invitation =>
      ({
        domainId: 'd1',
        email: 'a@example.com',
        accessLevel: 2,
        expiresAt: '2030-01-01T00:00:00.000Z',
        documentReferenceId: 'i',
        documentPath: 'invitations/i',
        ...fields,
      }) as Invitation;
    const now = Date.parse('2029-01-01T00:00:00Z');
    expect(invitationStateOf(invitation({}), now)).toBe('valid');
    expect(invitationStateOf(invitation({ usedAt: '2029-01-01T00:00:00.000Z' }), now)).toBe('used');
    expect(invitationStateOf(invitation({ expiresAt: '2028-01-01T00:00:00.000Z' }), now)).toBe('expired');
    expect(invitationStateOf(invitation({ revokedAt: '2028-06-01T00:00:00.000Z', expiresAt: '2028-06-01T00:00:00.000Z' }), now)).toBe('revoked');
  });
});
