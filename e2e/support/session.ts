import type { BrowserContext } from 'playwright-core';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';

/** Signs a browser context in through the real API, so its cookies carry the session. */
export async function signInByApi(context: BrowserContext, baseURL: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await context.request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: { email, password },
    headers: { origin: baseURL },
  });
  if (!response.ok()) throw new Error(`sign-in as ${email} answered ${response.status()}: ${await response.text()}`);
}
