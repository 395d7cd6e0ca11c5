/**
 * The role and level table of the specification (section 6). Levels rise with rights, so every
 * access rule in the product is a minimum level; see PRODUCT.md sections 1 and 4.
 */
export const ROLE_LEVELS = {
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
} as const;

export type RoleName = keyof typeof ROLE_LEVELS;
export type AccessLevel = (typeof ROLE_LEVELS)[RoleName];

/** The specification's four kinds of user ("Types: user, agency, dev, sys"). */
export type RoleType = 'user' | 'agency' | 'dev' | 'sys';

export const ROLE_NAMES = Object.keys(ROLE_LEVELS) as RoleName[];

export const ACCESS_LEVELS: readonly AccessLevel[] = ROLE_NAMES.map((name) => ROLE_LEVELS[name]);

export function isAccessLevel(value: unknown): value is AccessLevel {
  return typeof value === 'number' && (ACCESS_LEVELS as readonly number[]).includes(value);
}

/** The role whose level is the highest one not above `level` (unknown levels round down). */
export function roleOfLevel(level: number): RoleName {
  let found: RoleName = 'requestMfa';
  for (const name of ROLE_NAMES) {
    if (ROLE_LEVELS[name] <= level) found = name;
  }
  return found;
}

export function roleTypeOfLevel(level: number): RoleType {
  if (level >= ROLE_LEVELS.systemAdmin) return 'sys';
  if (level >= ROLE_LEVELS.developer) return 'dev';
  if (level >= ROLE_LEVELS.agency) return 'agency';
  return 'user';
}
