import { describe, inject, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { checkEveryRoute } from './support/guardMatrix.ts';

const baseURL = inject('baseURL');
const shared = useBrowser();

describe('every route for agencies, developers and the system admin', () => {
  it.each(['agency@example.com', 'agency-admin@example.com', 'developer@example.com', 'senior@example.com', 'super@example.com', 'sysadmin@example.com'])(
    '%s',
    async (email) => {
      await checkEveryRoute(shared.browser, baseURL, email);
    },
    // Each account opens every route of the table (about 70 screens, each its own chunk): 7–10 s on a
    // quiet machine, over a minute on a loaded 2-core CI runner.
    180_000,
  );
});
