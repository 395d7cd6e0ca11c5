/**
 * Changing the e-mail address through the mailed link, and the old address taking it back
 * (recoverEmail), with mail read from the development outbox.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { listOutbox } from '../mail/mail.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { EMAIL_CHANGE_ERRORS } from './emailChange.ts';

describe('changing and recovering the e-mail address', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.4.${address++}` });
  /** Mail goes out without the request waiting for it: look a few times. */
  const tokenIn = async (to: string, subject: string): Promise<string> => {
    let mail;
    for (let attempt = 0; attempt < 40 && mail === undefined; attempt++) {
      mail = (await listOutbox(server.database)).find((item) => item.to === to && item.subject.includes(subject));
      if (mail === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const link = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0];
    if (link === undefined) throw new Error(`no "${subject}" mail to ${to}`);
    return new URL(link).searchParams.get('token') ?? '';
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-email-change-');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '0', WEB_DIST: join(dir.path, 'no-web') }),
      { logger: false },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('changes the address through the link sent to the new one, and the old one can take it back', async () => {
    const browser = client();
    await browser.signUp({ name: '変更 太郎', email: 'old@example.com', password: 'change-password' });
    expect((await browser.post('/api/auth/email/change', { newEmail: 'New@Example.com' })).status).toBe(200);
    const changeToken = await tokenIn('new@example.com', 'メールアドレス変更の確認');
    expect(await browser.me()).toMatchObject({ email: 'old@example.com' });

    expect(await client().post('/api/auth/email/confirm', { token: `${changeToken}x` })).toMatchObject({ status: 400, body: EMAIL_CHANGE_ERRORS.invalidToken });
    expect((await client().post('/api/auth/email/confirm', { token: changeToken })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'new@example.com', isEmailVerified: true });
    // Spent: the address is no longer what the link expects.
    expect((await client().post('/api/auth/email/confirm', { token: changeToken })).status).toBe(400);
    expect((await client().signIn('new@example.com', 'change-password')).status).toBe(200);

    const recoverToken = await tokenIn('old@example.com', 'メールアドレスが変更されました');
    expect((await client().post('/api/auth/email/recover', { token: changeToken })).status).toBe(400);
    expect((await client().post('/api/auth/email/recover', { token: recoverToken })).status).toBe(200);
    // Every session ended; the old address signs in again.
    expect(await browser.me()).toBeNull();
    expect((await client().signIn('old@example.com', 'change-password')).status).toBe(200);
    expect((await client().signIn('new@example.com', 'change-password')).status).toBe(401);
  });

  it('refuses a malformed or unchanged address, and says nothing about taken ones', async () => {
    const browser = client();
    await browser.signUp({ name: 'a', email: 'first@example.com', password: 'change-password' });
    await client().signUp({ name: 'b', email: 'taken@example.com', password: 'change-password' });
    expect(await browser.post('/api/auth/email/change', { newEmail: 'not-an-address' })).toMatchObject({ status: 400, body: EMAIL_CHANGE_ERRORS.invalidEmail });
    expect(await browser.post('/api/auth/email/change', { newEmail: 'first@example.com' })).toMatchObject({ status: 400, body: EMAIL_CHANGE_ERRORS.sameEmail });
    expect((await browser.post('/api/auth/email/change', { newEmail: 'taken@example.com' })).status).toBe(200);
    expect((await listOutbox(server.database)).some((mail) => mail.to === 'taken@example.com' && mail.subject.includes('変更の確認'))).toBe(false);
    expect((await client().post('/api/auth/email/change', { newEmail: 'x@example.com' })).status).toBe(401);
  });
});
