import { describe, expect, it } from 'vitest';
import { ROLE_LEVELS } from './roles.ts';
import { ALL_ROUTES, decideAccess, levelOpensRoute, loginRedirectUrl, routeByName, safeRedirectTarget, type RouteAudience } from './routeAccess.ts';

/** PRODUCT.md section 4, transcribed path by path: minimum level, or the audience of sign-in pages. */
const EXPECTED: Record<string, number | 'signedOut' | 'anyone'> = {
  '/': 1,
  '/card': 1,
  '/table': 1,
  '/smallcard': 1,
  '/link': 1,
  '/room-config': 2,
  '/room-config/card': 2,
  '/room-config/table': 2,
  '/room-config/smallcard': 2,
  '/device-config': 2,
  '/device-config/table': 2,
  '/device-config/card': 2,
  '/device-config/smallcard': 2,
  '/data-import': 2,
  '/alert-history': 2,
  '/domain-config': 3,
  '/audit-log': 4,
  '/device-borrow': 100,
  '/report': 2,
  '/help': 1,
  '/agency': 50,
  '/agency/statistics': 50,
  '/agency/devices': 50,
  '/agency/bills': 50,
  '/agency/partners': 50,
  '/agency/partner/:partnerId': 50,
  '/monitoring': 3,
  '/monitoring-device': 3,
  '/monitoring-device/raw-eit': 3,
  '/monitoring-device/raw-respi-axl': 3,
  '/monitoring-device/raw-multi': 3,
  '/monitoring-device/raw-ecg': 3,
  '/monitoring-device/raw-impe': 3,
  '/monitoring-device/raw-respihr': 3,
  '/monitoring-device/raw-button': 3,
  '/monitoring-device/raw-temparature': 3,
  '/monitoring-room': 3,
  '/monitoring-room/raw-respi-axl': 3,
  '/monitoring-room/raw-button': 3,
  '/monitoring-room/raw-multi': 3,
  '/account-info': 1,
  '/room/:roomid': 1,
  '/room/:roomid/import': 2,
  '/room/:roomid/sleep': 1,
  '/room/:roomid/result': 1,
  '/room/:roomid/history': 2,
  '/sn/:value': 1,
  '/master': 100,
  '/master/paramater-lists': 100,
  '/master/device-lists/:deviceid': 100,
  '/master/device-types': 100,
  '/master/domain-lists': 100,
  '/master/domain/:domainid': 100,
  '/master/domain/:domainid/sleep': 100,
  '/master/domain/:domainid/history': 100,
  '/master/device/:deviceSerial': 100,
  '/master/view-lists': 100,
  '/master/history-lists': 100,
  '/login': 'signedOut',
  '/mfaauth': 'signedOut',
  '/sso': 'signedOut',
  '/sso/:samlid': 'signedOut',
  '/handleauth': 'anyone',
  '/signup': 'signedOut',
  '/anonymous': 'signedOut',
  '/register': 'signedOut',
  '/registerUser/:domainId': 'anyone',
  '/register-report-access-user': 'anyone',
};

function describeAccess(access: RouteAudience): number | 'signedOut' | 'anyone' {
  return access.audience === 'signedIn' ? access.minLevel : access.audience;
}

describe('route access table', () => {
  it('registers every path of PRODUCT.md section 4 with its rule', () => {
    const actual = new Map<string, number | 'signedOut' | 'anyone'>();
    for (const route of ALL_ROUTES) actual.set(route.fullPath, describeAccess(route.access));
    for (const [path, expected] of Object.entries(EXPECTED)) {
      expect(actual.has(path), `missing route ${path}`).toBe(true);
      expect(actual.get(path), path).toBe(expected);
    }
    expect([...actual.keys()].filter((path) => !(path in EXPECTED))).toEqual([]);
  });

  it('has unique route names, and keeps the specification names', () => {
    const names = ALL_ROUTES.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
    expect(routeByName('account_edit').fullPath).toBe('/account-info');
    expect(routeByName('signup').fullPath).toBe('/signup');
    expect(routeByName('RegisterReportAccessUser').fullPath).toBe('/register-report-access-user');
    expect(routeByName('roomImport').fullPath).toBe('/room/:roomid/import');
    expect(routeByName('roomSleep').fullPath).toBe('/room/:roomid/sleep');
  });

  it('redirects the index routes the specification names', () => {
    const redirects = Object.fromEntries(ALL_ROUTES.filter((r) => r.redirectTo).map((r) => [r.fullPath, r.redirectTo]));
    expect(redirects).toMatchObject({
      '/room-config': '/room-config/card',
      '/device-config': '/device-config/card',
      '/agency': '/agency/devices',
      '/room/:roomid': 'sleep',
    });
  });
});

describe('decideAccess', () => {
  const staffOnly: RouteAudience = { audience: 'signedIn', minLevel: ROLE_LEVELS.generalStaff };
  it.each([
    [null, 'signIn'],
    [0, 'enrollSecondFactor'],
    [1, 'forbidden'],
    [2, 'allow'],
    [200, 'allow'],
  ] as const)('a level-%s user on a staff page → %s', (level, expected) => {
    const user = level === null ? null : { accessLevel: level };
    expect(decideAccess(staffOnly, user as Parameters<typeof decideAccess>[1])).toBe(expected);
  });

  it('sends signed-in users home from sign-in pages and lets everyone open token pages', () => {
    expect(decideAccess({ audience: 'signedOut' }, { accessLevel: 2 })).toBe('goHome');
    expect(decideAccess({ audience: 'signedOut' }, null)).toBe('allow');
    expect(decideAccess({ audience: 'anyone' }, null)).toBe('allow');
    expect(decideAccess({ audience: 'anyone' }, { accessLevel: 5 })).toBe('allow');
  });

  it('lets a child rule replace its parent rule', () => {
    expect(levelOpensRoute(1, 'roomSleep')).toBe(true);
    expect(levelOpensRoute(1, 'roomImport')).toBe(false);
    expect(levelOpensRoute(2, 'roomHistory')).toBe(true);
  });
});

describe('sign-in redirects', () => {
  it('keeps the path to come back to', () => {
    expect(loginRedirectUrl('/room/r1/sleep?day=2026-11-01')).toBe('/login?redirect=%2Froom%2Fr1%2Fsleep%3Fday%3D2026-11-01');
  });
  it.each([
    ['/monitoring', '/monitoring'],
    [null, '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
  ])('honours only same-origin paths: %s → %s', (input, expected) => {
    expect(safeRedirectTarget(input)).toBe(expected);
  });
});
