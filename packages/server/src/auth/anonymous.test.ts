/**
 * Anonymous sign-in (Better Auth's anonymous plugin) over real sockets: a level-1 user without a
 * domain, `isAnonymous: true`, `providerId: 'anonymous'`, whose session ends on sign-out.
 */
import { join } from 'node:path';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

describe('anonymous sign-in', () => {
  let dir: TempDir;
  let server: RunningServer;

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-anon-');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '0', WEB_DIST: join(dir.path, 'no-web') }),
      { logger: false },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('gives a level-1 user without a domain, marked anonymous', async () => {
    const browser = new BrowserClient(server.url, { from: '127.0.0.80' });
    const reply = await browser.post('/api/auth/sign-in/anonymous');
    expect(reply.status).toBe(200);
    const user = (await browser.me()) as SignedInUser;
    expect(user).toMatchObject({
      displayName: null,
      email: null,
      providerId: 'anonymous',
      isAnonymous: true,
      isEmailVerified: false,
      loginProviders: [{ provider: 'anonymous', uid: user.uid }],
      accessLevel: ROLE_LEVELS.individualUser,
      domainId: null,
      rootDomainId: null,
      mfas: [],
    });

    // Signed in already: a second anonymous sign-in is refused.
    expect((await browser.post('/api/auth/sign-in/anonymous')).status).toBe(400);
    expect((await browser.signOut()).status).toBe(200);
    expect(await browser.me()).toBeNull();
  });
});
