/**
 * /register and /registerUser/:domainId over real sockets: a new root domain with its owner,
 * invitations by mail (dev outbox), accepting them with a new or an existing account, and the
 * staff rules on who may invite whom.
 */
import { join } from 'node:path';
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { REGISTRATION_ERRORS, type InvitationPreview } from '@nemuri/shared/registration';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { listOutbox } from '../mail/mail.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { createTestSchema, describePostgres } from '../testing/postgres.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

const PASSWORD = 'correct horse battery';

function registrationSuite(databaseUrl: () => Promise<{ url: string; drop(): Promise<void> }>) {
  let dir: TempDir;
  let server: RunningServer;
  let dropDatabase: () => Promise<void> = async () => undefined;
  let address = 10;
  /** Each client from its own loopback address: the rate limits count per address. */
  const client = () => new BrowserClient(server.url, { from: `127.0.1.${address++}` });

  /** Mail goes out without the request waiting for it: look a few times. */
  const latestMailTo = async (to: string, subject = '') => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const mail = (await listOutbox(server.database)).find((item) => item.to === to && item.subject.includes(subject));
      if (mail !== undefined) return mail;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  };
  const linkIn = (text: string): URL => new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? 'http://missing');

  const registerDomain = async (browser: BrowserClient, email: string) =>
    browser.post('/api/auth/registration/domain', { name: '登録 太郎', email, password: PASSWORD, domainName: 'ひまわり苑', domainKind: 'facility' });

  const invite = async (browser: BrowserClient, body: Record<string, unknown>) => browser.post('/api/auth/registration/invitations', body);

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-registration-');
    const database = await databaseUrl();
    dropDatabase = database.drop;
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        DATA_DIR: dir.path,
        DEMO: '1',
        SIMULATE: '0',
        WEB_DIST: join(dir.path, 'no-web'),
      }),
      { logger: false },
    );
    // The demo accounts' domains, so the test does not depend on the demo data set.
    const store = new DocumentStore(server.database, { error: () => undefined });
    const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    await store.set(system, 'domains/demo-corp', { name: '社会福祉法人さくら会', kind: 'corporation', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/demo-facility-a', { name: 'さくら苑', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/demo-facility-b', { name: 'もみじ荘', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' }, true);
    await store.set(system, 'domains/demo-agency', { name: 'ねむりケア販売株式会社', kind: 'agency', rootDomainId: 'demo-agency' }, true);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await dropDatabase();
    await dir?.remove();
  });

  it('creates a root domain whose registering user is its owner, signed in at once', async () => {
    const owner = client();
    const reply = await registerDomain(owner, 'Owner.New@Example.com');
    expect(reply.status).toBe(200);
    const { domainId } = reply.body as { domainId: string };
    const me = (await owner.me()) as SignedInUser;
    expect(me).toMatchObject({
      email: 'owner.new@example.com',
      displayName: '登録 太郎',
      accessLevel: ROLE_LEVELS.ownerAdministrator,
      domainId,
      rootDomainId: domainId,
      isEmailVerified: false,
    });
    const domain = await owner.get(`/api/documents/domains/${domainId}`);
    expect(domain.body).toMatchObject({ document: { name: 'ひまわり苑', kind: 'facility', rootDomainId: domainId } });
    const staff = await owner.get(`/api/documents/domains/${domainId}/staff/${me.uid}`);
    expect(staff.body).toMatchObject({ document: { email: 'owner.new@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator } });
    const mail = await latestMailTo('owner.new@example.com', 'メールアドレスの確認');
    expect(mail?.subject).toContain('メールアドレスの確認');
  });

  it('refuses a taken address, a short password and malformed input with their codes', async () => {
    await registerDomain(client(), 'taken@example.com');
    expect((await registerDomain(client(), 'taken@example.com')).body).toMatchObject({ code: 'USER_ALREADY_EXISTS' });
    const short = await client().post('/api/auth/registration/domain', {
      name: 'a',
      email: 'short@example.com',
      password: 'short',
      domainName: 'x',
      domainKind: 'facility',
    });
    expect(short.body).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
    const bad = await client().post('/api/auth/registration/domain', {
      name: 'a',
      email: 'bad@example.com',
      password: PASSWORD,
      domainName: 'x',
      domainKind: 'agency',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: REGISTRATION_ERRORS.invalidInput });
    // Nothing was created for the refused registrations.
    expect((await client().signIn('bad@example.com', PASSWORD)).status).toBe(401);
  });

  it('lets the owner invite by mail, and the invitee join with a new account through the link', async () => {
    const owner = client();
    const { domainId } = (await registerDomain(owner, 'owner.invites@example.com')).body as { domainId: string };
    const sent = await invite(owner, { email: 'new.staff@example.com', accessLevel: ROLE_LEVELS.generalStaff });
    expect(sent.status).toBe(200);
    const mail = await latestMailTo('new.staff@example.com', '招待');
    expect(mail?.subject).toBe('【ねむりモニター】ひまわり苑 への招待');
    const link = linkIn(mail?.text ?? '');
    expect(link.pathname).toBe(`/registerUser/${domainId}`);
    const invitationId = link.searchParams.get('invitation') ?? '';

    const invitee = client();
    const preview = await invitee.get(`/api/auth/registration/invitation?id=${invitationId}`);
    expect(preview.body).toMatchObject({
      domainId,
      domainName: 'ひまわり苑',
      email: 'new.staff@example.com',
      accessLevel: ROLE_LEVELS.generalStaff,
      status: 'valid',
    } satisfies Partial<InvitationPreview>);

    expect((await invitee.post('/api/auth/registration/accept', { invitationId, domainId: 'another-domain', name: '新人', password: PASSWORD })).status).toBe(
      404,
    );
    const accepted = await invitee.post('/api/auth/registration/accept', { invitationId, domainId, name: '新人 スタッフ', password: PASSWORD });
    expect(accepted.status).toBe(200);
    const me = (await invitee.me()) as SignedInUser;
    expect(me).toMatchObject({
      email: 'new.staff@example.com',
      accessLevel: ROLE_LEVELS.generalStaff,
      domainId,
      rootDomainId: domainId,
      isEmailVerified: true,
    });
    expect((await owner.get(`/api/documents/domains/${domainId}/staff/${me.uid}`)).body).toMatchObject({
      document: { displayName: '新人 スタッフ', accessLevel: ROLE_LEVELS.generalStaff },
    });

    const again = await client().post('/api/auth/registration/accept', { invitationId, domainId, name: 'x', password: PASSWORD });
    expect(again).toMatchObject({ status: 410, body: { code: REGISTRATION_ERRORS.invitationUsed } });
    expect((await client().get(`/api/auth/registration/invitation?id=${invitationId}`)).body).toMatchObject({ status: 'used' });
  });

  it('lets an existing account accept only when signed in with the invited address', async () => {
    const owner = client();
    const { domainId } = (await registerDomain(owner, 'owner.existing@example.com')).body as { domainId: string };
    const existing = client();
    expect((await existing.signUp({ name: '既存 利用者', email: 'someone@example.com', password: PASSWORD })).status).toBe(200);
    await invite(owner, { email: 'someone@example.com', accessLevel: ROLE_LEVELS.administrator });
    const invitationId = linkIn((await latestMailTo('someone@example.com', '招待'))?.text ?? '').searchParams.get('invitation') ?? '';

    const signedOut = await client().post('/api/auth/registration/accept', { invitationId, domainId, name: 'x', password: PASSWORD });
    expect(signedOut).toMatchObject({ status: 409, body: { code: REGISTRATION_ERRORS.signInToAccept } });
    const other = client();
    await registerDomain(other, 'other.person@example.com');
    expect((await other.post('/api/auth/registration/accept', { invitationId, domainId })).body).toMatchObject({
      code: REGISTRATION_ERRORS.invitationOtherAddress,
    });

    expect((await existing.post('/api/auth/registration/accept', { invitationId, domainId })).status).toBe(200);
    expect(await existing.me()).toMatchObject({ email: 'someone@example.com', accessLevel: ROLE_LEVELS.administrator, domainId, rootDomainId: domainId });
  });

  it('refuses to take the last owner away from their domain', async () => {
    const owner = client();
    const { domainId } = (await registerDomain(owner, 'owner.inviting@example.com')).body as { domainId: string };
    const lonelyOwner = client();
    await registerDomain(lonelyOwner, 'lonely.owner@example.com');
    await invite(owner, { email: 'lonely.owner@example.com', accessLevel: ROLE_LEVELS.generalStaff });
    const invitationId = linkIn((await latestMailTo('lonely.owner@example.com', '招待'))?.text ?? '').searchParams.get('invitation') ?? '';
    const refused = await lonelyOwner.post('/api/auth/registration/accept', { invitationId, domainId });
    expect(refused).toMatchObject({ status: 409, body: { code: REGISTRATION_ERRORS.lastOwner } });
    expect(await lonelyOwner.me()).toMatchObject({ accessLevel: ROLE_LEVELS.ownerAdministrator });
  });

  it('keeps the staff rules: nobody grants more than they may, nor invites outside their scope', async () => {
    const admin = client();
    await admin.signIn('admin@example.com', DEMO_PASSWORD);
    expect((await invite(admin, { email: 'a1@example.com', accessLevel: ROLE_LEVELS.generalStaff })).status).toBe(200);
    expect((await invite(admin, { email: 'a2@example.com', accessLevel: ROLE_LEVELS.administrator })).body).toMatchObject({
      code: REGISTRATION_ERRORS.invitationNotAllowed,
    });
    expect((await invite(admin, { email: 'a3@example.com', accessLevel: ROLE_LEVELS.generalStaff, domainId: 'demo-facility-b' })).status).toBe(403);
    expect((await invite(admin, { email: 'a4@example.com', accessLevel: 7 })).body).toMatchObject({ code: REGISTRATION_ERRORS.invalidInput });

    const staff = client();
    await staff.signIn('staff@example.com', DEMO_PASSWORD);
    expect((await invite(staff, { email: 'a5@example.com', accessLevel: ROLE_LEVELS.generalStaff })).status).toBe(403);
    expect((await invite(client(), { email: 'a6@example.com', accessLevel: ROLE_LEVELS.generalStaff })).status).toBe(403);

    const owner = client();
    await owner.signIn('owner@example.com', DEMO_PASSWORD);
    expect((await invite(owner, { email: 'a7@example.com', accessLevel: ROLE_LEVELS.privilegeAdministrator, domainId: 'demo-facility-b' })).status).toBe(200);
    expect((await invite(owner, { email: 'a8@example.com', accessLevel: ROLE_LEVELS.generalStaff, domainId: 'demo-agency' })).status).toBe(403);
  });

  it('refuses an expired invitation and an unknown one', async () => {
    const store = new DocumentStore(server.database, { error: () => undefined });
    const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    await store.set(
      system,
      'invitations/expired-one',
      { domainId: 'demo-facility-a', email: 'late@example.com', accessLevel: 2, expiresAt: new Date(Date.now() - 1000).toISOString() },
      false,
    );
    const late = await client().post('/api/auth/registration/accept', {
      invitationId: 'expired-one',
      domainId: 'demo-facility-a',
      name: '遅刻',
      password: PASSWORD,
    });
    expect(late).toMatchObject({ status: 410, body: { code: REGISTRATION_ERRORS.invitationExpired } });
    expect((await client().get('/api/auth/registration/invitation?id=expired-one')).body).toMatchObject({ status: 'expired' });
    expect((await client().get('/api/auth/registration/invitation?id=nothing')).status).toBe(404);
  });
}

describe('registration on PGlite', () => registrationSuite(async () => ({ url: 'memory://', drop: async () => undefined })));

describePostgres('registration on PostgreSQL', () =>
  registrationSuite(async () => {
    const schema = await createTestSchema();
    return { url: schema.url, drop: () => schema.drop() };
  }),
);
