/**
 * Mail over real sockets: a local SMTP server (smtp-server) receives the verification and reset
 * mail of a real Nemuri Monitor server, and the test follows their links the way the /handleauth
 * page does. Without SMTP_URL, mail lands in the development outbox, listed for system admins.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import type { OutboxResponse } from './outbox.ts';

const PASSWORD = 'futon-and-makura';

interface ReceivedMail {
  from: string;
  /** The From header as it travelled (encoded words undecoded). */
  rawFrom: string;
  to: string;
  subject: string;
  text: string;
}

async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((item) => item.text).join(', ') : (parsed.to?.text ?? '');
          // Unfolded (RFC 5322 section 2.2.3): a long header continues on lines starting with a space.
          const rawFrom = (parsed.headerLines.find((header) => header.key === 'from')?.line ?? '').replace(/\r?\n[ \t]+/g, ' ');
          mails.push({ from: parsed.from?.text ?? '', rawFrom, to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** The /handleauth link in a mail: its mode and token. */
function linkOf(mail: ReceivedMail | undefined): { url: URL; mode: string | null; token: string } {
  const match = /https?:\/\/\S+\/handleauth\?\S+/.exec(mail?.text ?? '');
  if (match === null) throw new Error(`no /handleauth link in: ${mail?.text}`);
  const url = new URL(match[0]);
  return { url, mode: url.searchParams.get('mode'), token: url.searchParams.get('token') ?? '' };
}

describe('mail through SMTP_URL', () => {
  let dir: TempDir;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: RunningServer;
  let nextAddress = 20;
  const client = () => new BrowserClient(server.url, { from: `127.0.0.${++nextAddress}` });

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-mail-');
    smtp = await startSmtp();
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        SMTP_URL: smtp.url,
      }),
      { logger: false },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await dir?.remove();
  });

  it('mails a verification link on sign-up without holding up sign-in; the link verifies the address', async () => {
    const browser = client();
    expect((await browser.signUp({ name: '佐藤 花子', email: 'hanako@example.com', password: PASSWORD })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'hanako@example.com', isEmailVerified: false });

    await expect.poll(() => smtp.mails.filter((mail) => mail.to === 'hanako@example.com').length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mails.find((item) => item.to === 'hanako@example.com');
    // The sender is named ねむりモニター, sent as an RFC 2047 encoded word: the header itself is ASCII.
    expect(mail?.from).toBe('"ねむりモニター" <no-reply@localhost.localdomain>');
    expect(mail?.rawFrom).toMatch(/^From: =\?UTF-8\?[BQ]\?[!-~]+\?= <no-reply@localhost\.localdomain>$/i);
    expect(mail).toMatchObject({ subject: '【ねむりモニター】メールアドレスの確認', text: expect.stringContaining('メールアドレスを確認するには') });
    const link = linkOf(mail);
    expect(link.url.origin).toBe(server.publicUrl);
    expect(link.mode).toBe('verifyEmail');

    // What /handleauth does with it.
    const verified = await browser.get(`/api/auth/verify-email?token=${encodeURIComponent(link.token)}`);
    expect(verified.status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'hanako@example.com', isEmailVerified: true });

    const broken = await browser.get('/api/auth/verify-email?token=not-a-token');
    expect(broken.status).toBe(401);
    expect(broken.body).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('mails a reset link; the link resets the password once, and unknown addresses get the same answer and no mail', async () => {
    const browser = client();
    await browser.signUp({ name: 'Jiro', email: 'jiro@example.com', password: PASSWORD });
    const before = smtp.mails.length;

    const requester = client();
    const known = await requester.post('/api/auth/request-password-reset', { email: 'jiro@example.com' });
    const unknown = await requester.post('/api/auth/request-password-reset', { email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);

    await expect.poll(() => smtp.mails.filter((mail) => mail.subject === '【ねむりモニター】パスワードの再設定').length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mails.find((item) => item.subject === '【ねむりモニター】パスワードの再設定');
    expect(mail?.to).toBe('jiro@example.com');
    const link = linkOf(mail);
    expect(link.mode).toBe('resetPassword');

    const reset = await requester.post('/api/auth/reset-password', { token: link.token, newPassword: 'a-brand-new-password' });
    expect(reset.status).toBe(200);
    expect(await browser.me()).toBeNull();
    expect((await client().signIn('jiro@example.com', 'a-brand-new-password')).status).toBe(200);
    const again = await requester.post('/api/auth/reset-password', { token: link.token, newPassword: 'yet-another-password' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'INVALID_TOKEN' });
    // Only the verification mail of the sign-up and the one reset mail.
    expect(smtp.mails.length - before).toBeLessThanOrEqual(2);
    expect(smtp.mails.some((item) => item.to === 'nobody@example.com')).toBe(false);
  });
});

describe('the development outbox (no SMTP_URL)', () => {
  let dir: TempDir;
  let server: RunningServer;
  let nextAddress = 40;
  const client = () => new BrowserClient(server.url, { from: `127.0.0.${++nextAddress}` });

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-outbox-');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '1', WEB_DIST: join(dir.path, 'no-web') }),
      { logger: false },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('keeps mail for system admins only: 401 signed out, 403 permission-denied below level 200', async () => {
    const browser = client();
    await browser.signUp({ name: 'Saburo', email: 'saburo@example.com', password: PASSWORD });

    const signedOut = await client().get('/api/dev/outbox');
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toMatchObject({ code: 'unauthenticated' });

    const forbidden = await browser.get('/api/dev/outbox');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'permission-denied' });

    const developer = client();
    await developer.signIn('super@example.com', DEMO_PASSWORD);
    expect((await developer.get('/api/dev/outbox')).status).toBe(403);

    const admin = client();
    expect((await admin.signIn('sysadmin@example.com', DEMO_PASSWORD)).status).toBe(200);
    await expect
      .poll(async () => ((await admin.get('/api/dev/outbox')).body as OutboxResponse).mails.map((mail) => mail.to), { timeout: 10_000 })
      .toContain('saburo@example.com');
    const { mails } = (await admin.get('/api/dev/outbox')).body as OutboxResponse;
    const mail = mails.find((item) => item.to === 'saburo@example.com');
    expect(mail).toEqual({
      id: expect.any(Number),
      to: 'saburo@example.com',
      subject: '【ねむりモニター】メールアドレスの確認',
      text: expect.stringContaining('/handleauth?mode=verifyEmail&token='),
      sentAt: expect.any(String),
    });

    // The link works from the outbox too.
    const token = new URL(/https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x/').searchParams.get('token') ?? '';
    expect((await browser.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    expect(await browser.me()).toMatchObject({ isEmailVerified: true });
  });
});
