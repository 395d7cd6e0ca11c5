/**
 * The route access table of PRODUCT.md section 4, defined once. The web router is generated from it,
 * the navigation lists only what it opens, and the server and tests read the same entries.
 *
 * A child's rule replaces its parent's (a child without a rule inherits the parent's).
 */
import { ROLE_LEVELS } from './roles.ts';
import type { SignedInUser } from './user.ts';

export type RouteAudience =
  /** Signed-in users at or above `minLevel` (level 0 users are held at second-factor enrolment). */
  | { audience: 'signedIn'; minLevel: number }
  /** Sign-in pages: a signed-in user is sent home. */
  | { audience: 'signedOut' }
  /** Pages that check their own token (e-mail actions, invitations, report links). */
  | { audience: 'anyone' };

export type RouteLayout = 'main' | 'plain';

export interface RouteSpec {
  /** Unique route name; also the translation key of its title (`routes.<name>`). */
  name: string;
  /** Path segment relative to the parent ('' for an index route). */
  path: string;
  access?: RouteAudience;
  /** Index routes that only redirect, e.g. `/room-config` → `/room-config/card`. */
  redirectTo?: string;
  children?: RouteSpec[];
}

const signedIn = (minLevel: number = ROLE_LEVELS.individualUser): RouteAudience => ({ audience: 'signedIn', minLevel });
const signedOut: RouteAudience = { audience: 'signedOut' };
const anyone: RouteAudience = { audience: 'anyone' };

const STAFF = ROLE_LEVELS.generalStaff;
const ADMIN = ROLE_LEVELS.administrator;
const AGENCY = ROLE_LEVELS.agency;
const DEVELOPER = ROLE_LEVELS.developer;

/** Layout `main`: header, navigation and account menu. Everything under it needs a signed-in user. */
export const MAIN_ROUTES: RouteSpec[] = [
  { name: 'home', path: '', access: signedIn() },
  { name: 'homeCard', path: 'card', access: signedIn() },
  { name: 'homeTable', path: 'table', access: signedIn() },
  { name: 'homeSmallCard', path: 'smallcard', access: signedIn() },
  { name: 'link', path: 'link', access: signedIn() },
  {
    name: 'roomConfig',
    path: 'room-config',
    access: signedIn(STAFF),
    children: [
      { name: 'roomConfigIndex', path: '', redirectTo: '/room-config/card' },
      { name: 'roomConfigCard', path: 'card' },
      { name: 'roomConfigTable', path: 'table' },
      { name: 'roomConfigSmallCard', path: 'smallcard' },
    ],
  },
  {
    name: 'deviceConfig',
    path: 'device-config',
    access: signedIn(STAFF),
    children: [
      { name: 'deviceConfigIndex', path: '', redirectTo: '/device-config/card' },
      { name: 'deviceConfigTable', path: 'table' },
      { name: 'deviceConfigCard', path: 'card' },
      { name: 'deviceConfigSmallCard', path: 'smallcard' },
    ],
  },
  { name: 'dataImport', path: 'data-import', access: signedIn(STAFF) },
  { name: 'domainConfig', path: 'domain-config', access: signedIn(ADMIN) },
  { name: 'deviceBorrow', path: 'device-borrow', access: signedIn(DEVELOPER) },
  { name: 'report', path: 'report', access: signedIn(STAFF) },
  { name: 'help', path: 'help', access: signedIn() },
  {
    name: 'agency',
    path: 'agency',
    access: signedIn(AGENCY),
    children: [
      { name: 'agencyIndex', path: '', redirectTo: '/agency/devices' },
      { name: 'agencyStatistics', path: 'statistics' },
      { name: 'agencyDevices', path: 'devices' },
      { name: 'agencyBills', path: 'bills' },
      { name: 'agencyPartners', path: 'partners' },
      { name: 'agencyPartner', path: 'partner/:partnerId' },
    ],
  },
  { name: 'monitoring', path: 'monitoring', access: signedIn(ADMIN) },
  // The alerts of the user's rooms, past and present (issue 18): for the nurses who acknowledge them.
  { name: 'alertHistory', path: 'alert-history', access: signedIn(STAFF) },
  // Who changed what (issue 21): privilege administrators and owners (4-5) their corporation's, agencies their own, developers all.
  { name: 'auditLog', path: 'audit-log', access: signedIn(ROLE_LEVELS.privilegeAdministrator) },
  {
    name: 'monitoringDevice',
    path: 'monitoring-device',
    access: signedIn(ADMIN),
    children: [
      { name: 'monitoringDeviceEmpty', path: '' },
      { name: 'monitoringDeviceRawEit', path: 'raw-eit' },
      { name: 'monitoringDeviceRawRespiAxl', path: 'raw-respi-axl' },
      { name: 'monitoringDeviceRawMulti', path: 'raw-multi' },
      { name: 'monitoringDeviceRawEcg', path: 'raw-ecg' },
      { name: 'monitoringDeviceRawImpe', path: 'raw-impe' },
      { name: 'monitoringDeviceRawRespiHr', path: 'raw-respihr' },
      { name: 'monitoringDeviceRawButton', path: 'raw-button' },
      { name: 'monitoringDeviceRawTemparature', path: 'raw-temparature' },
    ],
  },
  {
    name: 'monitoringRoom',
    path: 'monitoring-room',
    access: signedIn(ADMIN),
    children: [
      { name: 'monitoringRoomIndex', path: '', redirectTo: '/monitoring' },
      { name: 'monitoringRoomRawRespiAxl', path: 'raw-respi-axl' },
      { name: 'monitoringRoomRawButton', path: 'raw-button' },
      { name: 'monitoringRoomRawMulti', path: 'raw-multi' },
    ],
  },
  { name: 'account_edit', path: 'account-info', access: signedIn() },
  {
    name: 'room',
    path: 'room/:roomid',
    access: signedIn(ROLE_LEVELS.individualUser),
    children: [
      { name: 'roomIndex', path: '', redirectTo: 'sleep' },
      { name: 'roomImport', path: 'import', access: signedIn(STAFF) },
      { name: 'roomSleep', path: 'sleep' },
      { name: 'roomResult', path: 'result' },
      { name: 'roomHistory', path: 'history', access: signedIn(STAFF) },
    ],
  },
  { name: 'serialNumber', path: 'sn/:value', access: signedIn() },
  {
    name: 'master',
    path: 'master',
    access: signedIn(DEVELOPER),
    children: [
      { name: 'masterHome', path: '' },
      { name: 'masterParameterLists', path: 'paramater-lists' },
      { name: 'masterDeviceType', path: 'device-lists/:deviceid' },
      { name: 'masterDeviceTypes', path: 'device-types' },
      { name: 'masterDomainLists', path: 'domain-lists' },
      {
        name: 'masterDomain',
        path: 'domain/:domainid',
        children: [
          { name: 'masterDomainData', path: '' },
          { name: 'masterDomainSleep', path: 'sleep' },
          { name: 'masterDomainHistory', path: 'history' },
        ],
      },
      { name: 'masterDevice', path: 'device/:deviceSerial' },
      { name: 'masterViewLists', path: 'view-lists' },
      { name: 'masterHistoryLists', path: 'history-lists' },
    ],
  },
];

/** Layout `plain`: sign-in and account-creation pages. */
export const PLAIN_ROUTES: RouteSpec[] = [
  { name: 'login', path: 'login', access: signedOut },
  { name: 'mfaauth', path: 'mfaauth', access: signedOut },
  { name: 'sso', path: 'sso', access: signedOut },
  { name: 'ssoProvider', path: 'sso/:samlid', access: signedOut },
  { name: 'handleauth', path: 'handleauth', access: anyone },
  { name: 'signup', path: 'signup', access: signedOut },
  { name: 'anonymous', path: 'anonymous', access: signedOut },
  { name: 'register', path: 'register', access: signedOut },
  { name: 'registerUser', path: 'registerUser/:domainId', access: anyone },
  { name: 'RegisterReportAccessUser', path: 'register-report-access-user', access: anyone },
];

/** Editing rights inside areas whose screens open at a lower level (PRODUCT.md section 4). */
export const EDIT_LEVELS = {
  agencyBillsAndPartners: ROLE_LEVELS.agencyAdmin,
  masterData: ROLE_LEVELS.seniorDeveloper,
} as const;

export interface FlatRoute {
  name: string;
  /** Absolute path pattern, e.g. `/room/:roomid/sleep`. */
  fullPath: string;
  layout: RouteLayout;
  /** The rule in force: the route's own, else the nearest ancestor's. */
  access: RouteAudience;
  redirectTo?: string;
  /** True when the route renders a screen of its own (not a redirect, not a parent-only route). */
  isScreen: boolean;
}

function joinPath(parent: string, segment: string): string {
  if (segment === '') return parent === '' ? '/' : parent;
  return `${parent === '/' ? '' : parent}/${segment}`;
}

function flatten(routes: RouteSpec[], layout: RouteLayout, parentPath: string, inherited: RouteAudience | undefined): FlatRoute[] {
  return routes.flatMap((route) => {
    const fullPath = joinPath(parentPath, route.path);
    const access = route.access ?? inherited;
    if (!access) throw new Error(`route ${route.name} has no access rule`);
    const own: FlatRoute = {
      name: route.name,
      fullPath,
      layout,
      access,
      ...(route.redirectTo ? { redirectTo: route.redirectTo } : {}),
      isScreen: !route.redirectTo && !route.children,
    };
    return [own, ...flatten(route.children ?? [], layout, fullPath, access)];
  });
}

/** Every route of the product with its absolute path and the access rule in force. */
export const ALL_ROUTES: FlatRoute[] = [...flatten(MAIN_ROUTES, 'main', '', undefined), ...flatten(PLAIN_ROUTES, 'plain', '', undefined)];

const ROUTES_BY_NAME = new Map(ALL_ROUTES.map((route) => [route.name, route]));

export function routeByName(name: string): FlatRoute {
  const route = ROUTES_BY_NAME.get(name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route;
}

/** What the guard does for a user on a route. */
export type AccessDecision = 'allow' | 'signIn' | 'goHome' | 'forbidden' | 'enrollSecondFactor';

export function decideAccess(access: RouteAudience, user: Pick<SignedInUser, 'accessLevel'> | null): AccessDecision {
  switch (access.audience) {
    case 'anyone':
      return 'allow';
    case 'signedOut':
      return user ? 'goHome' : 'allow';
    case 'signedIn':
      if (!user) return 'signIn';
      if (user.accessLevel === ROLE_LEVELS.requestMfa) return 'enrollSecondFactor';
      return user.accessLevel >= access.minLevel ? 'allow' : 'forbidden';
  }
}

/** Whether a signed-in user at `level` may open the route named `name`. */
export function levelOpensRoute(level: number, name: string): boolean {
  const { access } = routeByName(name);
  return decideAccess(access, { accessLevel: level as SignedInUser['accessLevel'] }) === 'allow';
}

/** The sign-in page URL that brings the user back to `path` afterwards. */
export function loginRedirectUrl(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}

/**
 * Where to go after signing in: only same-origin absolute paths are honoured, so a crafted link
 * cannot send the user to another site.
 */
export function safeRedirectTarget(redirect: string | null | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  return redirect;
}
