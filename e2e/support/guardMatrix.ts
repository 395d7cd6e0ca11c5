import type { Browser, Page } from 'playwright-core';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { expect } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_DOMAINS_REQUIRING_MFA } from '@nemuri/shared/demoAccounts';
import { ALL_ROUTES, decideAccess, type FlatRoute } from '@nemuri/shared/routeAccess';
import ja from '../../packages/web/src/locales/ja.json';
import { newContext } from './browser.ts';
import { signInByApi } from './session.ts';

const SAMPLE_PARAMS: Record<string, string> = {
  roomid: 'room-1',
  partnerId: 'partner-1',
  deviceid: 'type-1',
  domainid: 'domain-1',
  deviceSerial: 'SN0001',
  value: 'SN0001',
  samlid: 'acme',
  domainId: 'domain-1',
};

function samplePath(route: FlatRoute): string {
  return route.fullPath.replace(/:(\w+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? name);
}

/** Routes a person can open by address: screens and redirecting index routes. */
const OPENABLE = ALL_ROUTES.filter((route) => route.isScreen || route.redirectTo);
const FORBIDDEN = ja.guard.forbidden;
const ENROL = ja.guard.enrollSecondFactor;

async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const STEP_TIMEOUT = 20_000;
const FIRST_PAGE_TIMEOUT = 90_000;

/** In-app navigations change the URL without a load event: poll the location instead. */
async function waitForPath(page: Page, path: string, timeout: number): Promise<void> {
  await page.waitForFunction((expected) => window.location.pathname === expected, path, { timeout });
}

async function mainText(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('main, .mantine-Container-root')?.textContent ?? '');
}

type Decision = ReturnType<typeof decideAccess>;

/** Waits for what the guard shows at `path`: the screen, the forbidden text, enrolment, sign-in or home. */
async function expectGuardOutcome(
  page: Page,
  route: FlatRoute,
  path: string,
  decision: Decision,
  level: number | null,
  timeout: number,
  label = path,
): Promise<void> {
  if (decision === 'signIn') {
    await waitForPath(page, '/login', timeout);
    expect(new URL(page.url()).searchParams.get('redirect'), label).toBe(path);
  } else if (decision === 'goHome') {
    await waitForPath(page, '/', timeout);
  } else if (decision === 'forbidden') {
    await page.getByText(FORBIDDEN).waitFor({ timeout });
    expect(new URL(page.url()).pathname, label).toBe(path);
  } else if (decision === 'enrollSecondFactor') {
    await page.getByText(ENROL).waitFor({ timeout });
  } else if (route.redirectTo || (route.name === 'serialNumber' && (level ?? 0) >= ROLE_LEVELS.generalStaff)) {
    // `/sn/:value` resolves the serial and moves on for staff and above (to a room, the master
    // area or registration); below, it says so on its own page.
    await page.waitForFunction((from) => window.location.pathname !== from, path, { timeout });
    expect(await mainText(page), label).not.toContain(FORBIDDEN);
  } else {
    const routeTitle = (ja.routes as Record<string, string>)[route.name];
    if (!routeTitle) throw new Error(`no Japanese title for ${route.name}`);
    // Screens about one thing add it after the route's title: 「睡眠 — 101号室」.
    const title = route.name === 'home' ? /ようこそ/ : new RegExp(`^${routeTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( — .+)?$`);
    await page.getByRole('heading', { name: title }).first().waitFor({ timeout });
    expect(new URL(page.url()).pathname, label).toBe(path);
  }
}

/**
 * Opens every route of the access table as one demo account (or signed out) and checks what the
 * guard shows: the screen, the forbidden text, second-factor enrolment, the sign-in page or home.
 */
export async function checkEveryRoute(browser: Browser, baseURL: string, email: string | null): Promise<void> {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === email) ?? null;
  if (email) await signInByApi(context, baseURL, email);
  const level = account ? (DEMO_DOMAINS_REQUIRING_MFA.includes(account.domainId) ? 0 : account.accessLevel) : null;
  const user = level === null ? null : { accessLevel: level as 0 };

  // The first page waits for what the guard shows on it, like every later one; a whole run's parallel
  // browser files load the one server, so this first settled page may take over a minute.
  const help = OPENABLE.find((route) => route.name === 'help');
  if (!help) throw new Error('the access table has no help route');
  await page.goto('/help');
  await expectGuardOutcome(page, help, '/help', decideAccess(help.access, user), level, FIRST_PAGE_TIMEOUT);
  for (const route of OPENABLE) {
    const path = samplePath(route);
    const decision = decideAccess(route.access, user);
    // Sign-in pages bounce a signed-in user home at once; a full load there avoids racing two
    // in-app navigations (the bounce and the next synthetic one), which the guard matrix is not about.
    if (decision === 'goHome') await page.goto(path);
    else await openInApp(page, path);
    await expectGuardOutcome(page, route, path, decision, level, STEP_TIMEOUT, `${email ?? 'signed out'} → ${path}`);
  }
  await context.close();
}
