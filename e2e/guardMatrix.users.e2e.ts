import { describe, inject, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { checkEveryRoute } from './support/guardMatrix.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();

describe('every route for facility users and signed-out visitors', () => {
  it.each([null, 'individual@example.com', 'staff@example.com', 'admin@example.com', 'privilege@example.com', 'owner@example.com', 'mfa@example.com'])(
    '%s',
    async (email) => {
      await checkEveryRoute(shared.browser, baseURL, email);
    },
    // Every route of the table per account: seconds on a quiet machine, over a minute on a loaded CI runner.
    180_000,
  );
});
