import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ICON_SIZES, NOTIFICATION_DEFAULT_TIMEOUT_MS, UPDATE_CHECK_INTERVAL_MS } from './constants.ts';
import { ROLE_LEVELS, isAccessLevel, roleOfLevel, roleTypeOfLevel } from './roles.ts';
import { APP_VERSION } from './version.ts';

describe('roles', () => {
  it('carries the specification levels', () => {
    expect(ROLE_LEVELS).toEqual({
      requestMfa: 0,
      individualUser: 1,
      generalStaff: 2,
      administrator: 3,
      privilegeAdministrator: 4,
      ownerAdministrator: 5,
      agency: 50,
      agencyAdmin: 51,
      developer: 100,
      seniorDeveloper: 101,
      superDeveloper: 102,
      systemAdmin: 200,
    });
  });

  it('names roles and types by level', () => {
    expect(roleOfLevel(51)).toBe('agencyAdmin');
    expect(roleOfLevel(60)).toBe('agencyAdmin');
    expect(roleTypeOfLevel(5)).toBe('user');
    expect(roleTypeOfLevel(50)).toBe('agency');
    expect(roleTypeOfLevel(101)).toBe('dev');
    expect(roleTypeOfLevel(200)).toBe('sys');
    expect(isAccessLevel(3)).toBe(true);
    expect(isAccessLevel(6)).toBe(false);
  });
});

describe('constants', () => {
  it('match the specification', () => {
    expect(UPDATE_CHECK_INTERVAL_MS).toBe(86_400_000);
    expect(NOTIFICATION_DEFAULT_TIMEOUT_MS).toBe(5000);
    expect(ICON_SIZES).toEqual({ xs: 18, sm: 24, md: 32, lg: 38, xl: 46 });
  });

  it('keeps the version label equal to the root package version', () => {
    const rootPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe('0.8.32');
    expect(rootPackage.version).toBe(APP_VERSION);
  });
});
