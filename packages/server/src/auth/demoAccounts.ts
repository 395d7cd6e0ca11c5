/**
 * The demo accounts (shared/demoAccounts.ts), created in demo mode: each one that does not exist
 * yet gets the demo password, a verified e-mail address and its level, domain and root domain.
 * Those three cannot be set through sign-up (`input: false`), so they are written with the user
 * through Better Auth's internal adapter, in one transaction with the password per account.
 * Existing accounts are left as they are.
 */
import { runWithTransaction } from '@better-auth/core/context';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from '@nemuri/shared/demoAccounts';
import type { Auth } from './auth.ts';

/** Returns how many accounts this call created. */
export async function createDemoAccounts(auth: Auth, accounts: readonly DemoAccount[] = DEMO_ACCOUNTS): Promise<number> {
  const context = await auth.$context;
  let passwordHash: string | undefined;
  let created = 0;
  for (const account of accounts) {
    const email = account.email.toLowerCase();
    if ((await context.internalAdapter.findUserByEmail(email)) !== null) continue;
    // One hash for all: the password is the same and public anyway, and hashing is slow on purpose.
    passwordHash ??= await context.password.hash(DEMO_PASSWORD);
    const hash = passwordHash;
    await runWithTransaction(context.adapter, async () => {
      const user = await context.internalAdapter.createUser(
        {
          email,
          name: account.displayName,
          emailVerified: true,
          accessLevel: account.accessLevel,
          domainId: account.domainId,
          rootDomainId: account.rootDomainId,
        },
        { method: 'admin' },
      );
      await context.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
    });
    created++;
  }
  return created;
}
