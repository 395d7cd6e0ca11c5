import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer, WEB_DIST } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

/** One built server for every browser test file (files that need their own start their own). */
export default async function setup(project: TestProject) {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error('The web app is not built: run "npm run build" first (npm test does this before the browser tests).');
  }
  // Demo mode gives the browser tests the demo accounts. Sign-in limits are raised because every
  // test signs in from 127.0.0.1; the limits themselves are tested in the server's own tests.
  const server = await startServer({ env: { DATABASE_URL: 'memory://', DEMO: '1', AUTH_RATE_LIMIT_MAX: '10000' } });
  project.provide('baseURL', server.url);
  return async () => {
    await server.stop();
  };
}
