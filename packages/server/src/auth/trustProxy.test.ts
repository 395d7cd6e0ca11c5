/**
 * TRUST_PROXY: behind a reverse proxy the sign-in limits count per client (X-Forwarded-For); without
 * it the header is ignored, so nobody escapes the limits by sending it.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

describe('TRUST_PROXY', () => {
  let dir: TempDir | undefined;
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    await dir?.remove();
  });

  const start = async (env: Record<string, string>) => {
    dir = await makeTempDir('nemuri-proxy-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        AUTH_RATE_LIMIT_MAX: '2',
        ...env,
      }),
      { logger: false },
    );
    // Every request comes from the same proxy address.
    return new BrowserClient(server.url, { from: '127.0.7.1' });
  };
  const attempt = (proxy: BrowserClient, forwardedFor: string) =>
    proxy.post('/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'wrong-password' }, { 'x-forwarded-for': forwardedFor });

  it('counts per forwarded client behind a trusted proxy', async () => {
    const proxy = await start({ TRUST_PROXY: '1' });
    expect((await attempt(proxy, '203.0.113.1')).status).toBe(401);
    expect((await attempt(proxy, '203.0.113.1')).status).toBe(401);
    expect((await attempt(proxy, '203.0.113.1')).status).toBe(429);
    expect((await attempt(proxy, '203.0.113.2')).status).toBe(401);
  });

  it('ignores the header without TRUST_PROXY', async () => {
    const proxy = await start({});
    expect((await attempt(proxy, '203.0.113.1')).status).toBe(401);
    expect((await attempt(proxy, '203.0.113.2')).status).toBe(401);
    expect((await attempt(proxy, '203.0.113.3')).status).toBe(429);
  });
}, 60_000);
