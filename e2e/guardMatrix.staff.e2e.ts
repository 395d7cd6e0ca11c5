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
  );
});
