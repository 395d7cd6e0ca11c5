/**
 * Demo accounts, created only in demo mode (PRODUCT.md and the identity issue). They share one
 * password and are listed on the demo sign-in page and in the README.
 */
import { ROLE_LEVELS } from './roles.ts';

export const DEMO_PASSWORD = 'nemuri-demo-2026';

/** Tenants of the demo data set: a corporation with two facilities, an agency and the maker. */
export const DEMO_DOMAINS = {
  corporation: 'demo-corp',
  facilityA: 'demo-facility-a',
  facilityB: 'demo-facility-b',
  household: 'demo-household',
  agency: 'demo-agency',
  maker: 'demo-maker',
  mfaFacility: 'demo-facility-mfa',
} as const;

export interface DemoAccount {
  email: string;
  displayName: string;
  /** The level the account is assigned (the mfa account shows 0 until it enrols a second factor). */
  accessLevel: number;
  domainId: string;
  rootDomainId: string;
}

const facility = { domainId: DEMO_DOMAINS.facilityA, rootDomainId: DEMO_DOMAINS.corporation };
const agency = { domainId: DEMO_DOMAINS.agency, rootDomainId: DEMO_DOMAINS.agency };
const maker = { domainId: DEMO_DOMAINS.maker, rootDomainId: DEMO_DOMAINS.maker };

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'individual@example.com',
    displayName: '山田 花子',
    accessLevel: ROLE_LEVELS.individualUser,
    domainId: DEMO_DOMAINS.household,
    rootDomainId: DEMO_DOMAINS.household,
  },
  { email: 'staff@example.com', displayName: '佐藤 介護', accessLevel: ROLE_LEVELS.generalStaff, ...facility },
  { email: 'admin@example.com', displayName: '鈴木 管理', accessLevel: ROLE_LEVELS.administrator, ...facility },
  { email: 'privilege@example.com', displayName: '高橋 特権', accessLevel: ROLE_LEVELS.privilegeAdministrator, ...facility },
  {
    email: 'owner@example.com',
    displayName: '田中 オーナー',
    accessLevel: ROLE_LEVELS.ownerAdministrator,
    domainId: DEMO_DOMAINS.corporation,
    rootDomainId: DEMO_DOMAINS.corporation,
  },
  { email: 'agency@example.com', displayName: '伊藤 代理店', accessLevel: ROLE_LEVELS.agency, ...agency },
  { email: 'agency-admin@example.com', displayName: '渡辺 代理店管理', accessLevel: ROLE_LEVELS.agencyAdmin, ...agency },
  { email: 'developer@example.com', displayName: '中村 開発', accessLevel: ROLE_LEVELS.developer, ...maker },
  { email: 'senior@example.com', displayName: '小林 上級開発', accessLevel: ROLE_LEVELS.seniorDeveloper, ...maker },
  { email: 'super@example.com', displayName: '加藤 特権開発', accessLevel: ROLE_LEVELS.superDeveloper, ...maker },
  { email: 'sysadmin@example.com', displayName: '吉田 システム', accessLevel: ROLE_LEVELS.systemAdmin, ...maker },
  {
    email: 'mfa@example.com',
    displayName: '山本 二要素',
    accessLevel: ROLE_LEVELS.generalStaff,
    domainId: DEMO_DOMAINS.mfaFacility,
    rootDomainId: DEMO_DOMAINS.corporation,
  },
];

/** Domains whose settings require a second factor (`domain.settings.requireMfa`) in the demo data. */
export const DEMO_DOMAINS_REQUIRING_MFA: readonly string[] = [DEMO_DOMAINS.mfaFacility];
