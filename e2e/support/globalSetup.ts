import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startOidcProvider } from '../../packages/server/src/testing/oidcProvider.ts';
import { startServer, WEB_DIST } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The local OpenID providers standing in for Google and LINE (POST /test/next-login picks the account). */
    googleIssuer: string;
    lineIssuer: string;
  }
}

/** A port free right now: the server's public URL must name it before the server starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** One built server for every browser test file (files that need their own start their own). */
export default async function setup(project: TestProject) {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error('The web app is not built: run "npm run build" first (npm test does this before the browser tests).');
  }
  // Demo mode gives the browser tests the demo accounts and the demo data set (NEMURI_DEMO_DATA: the
  // server would skip the data set under the test runner, whose environment it inherits). Sign-in limits are raised because every
  // test signs in from 127.0.0.1; the limits themselves are tested in the server's own tests.
  // Google and LINE are a local OpenID provider. The public URL is 127.0.0.1 (not localhost), as
  // the browser opens it: the provider sends the browser back there, where its sign-in cookies are.
  const google = await startOidcProvider({ emailDomain: 'google.example', cookiePrefix: 'google' });
  const line = await startOidcProvider({ emailDomain: 'line.example', cookiePrefix: 'line' });
  const port = await freePort();
  const provider = (prefix: string, idp: typeof google) => ({
    [`${prefix}_CLIENT_ID`]: idp.clientId,
    [`${prefix}_CLIENT_SECRET`]: idp.clientSecret,
    [`${prefix}_DISCOVERY_URL`]: idp.discoveryUrl,
  });
  const server = await startServer({
    env: {
      DATABASE_URL: 'memory://',
      DEMO: '1',
      NEMURI_DEMO_DATA: '1',
      AUTH_RATE_LIMIT_MAX: '10000',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...provider('GOOGLE', google),
      ...provider('LINE', line),
    },
  });
  project.provide('baseURL', server.url);
  project.provide('googleIssuer', google.issuer);
  project.provide('lineIssuer', line.issuer);
  return async () => {
    await server.stop();
    await Promise.all([google.close(), line.close()]);
  };
}
