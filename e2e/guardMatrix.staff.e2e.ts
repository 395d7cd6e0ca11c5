import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { checkEveryRoute } from './support/guardMatrix.ts';

const baseURL = inject('baseURL');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('every route for agencies, developers and the system admin', () => {
  it.each(['agency@example.com', 'agency-admin@example.com', 'developer@example.com', 'senior@example.com', 'super@example.com', 'sysadmin@example.com'])(
    '%s',
    async (email) => {
      await checkEveryRoute(browser, baseURL, email);
    },
  );
});
