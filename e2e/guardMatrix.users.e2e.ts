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

describe('every route for facility users and signed-out visitors', () => {
  it.each([null, 'individual@example.com', 'staff@example.com', 'admin@example.com', 'privilege@example.com', 'owner@example.com', 'mfa@example.com'])(
    '%s',
    async (email) => {
      await checkEveryRoute(browser, baseURL, email);
    },
  );
});
