/**
 * The account profile endpoints on a real server (PGlite): phone numbers checked and normalised,
 * photos checked by type, content and size, served to their owner and to those who may read the
 * owner's staff record only (anyone else gets a missing photo's answer), and Better Auth's user
 * record pointing at the photo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES } from '@nemuri/shared/accountProfile';
import { seedDemoData } from '../demo/seedDemoData.ts';
import { signedInClient, startIngestServer, type IngestTestServer } from '../ingest/testing.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { decodePhoto } from './accountPlugin.ts';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('account profile', () => {
  let base: IngestTestServer;
  let staff: BrowserClient;
  let admin: BrowserClient;

  const put = (client: BrowserClient, path: string, body: unknown) => client.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });

  beforeAll(async () => {
    base = await startIngestServer();
    // The demo set's domains and a staff record for every demo account: the scope photos are read in.
    await seedDemoData(base.server.app.documents, { info: () => undefined, warn: () => undefined, error: () => undefined });
    [staff, admin] = await Promise.all([signedInClient(base.server, 'staff@example.com'), signedInClient(base.server, 'admin@example.com')]);
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('refuses callers who are not signed in', async () => {
    const anonymous = new BrowserClient(base.server.url);
    expect((await anonymous.get('/api/account/profile')).status).toBe(401);
    expect((await put(anonymous, '/api/account/profile/phone', { phoneNumber: '090-1234-5678' })).status).toBe(401);
  });

  it('stores a Japanese phone number in its national form and clears it', async () => {
    expect((await staff.get('/api/account/profile')).body).toEqual({ phoneNumber: null, photoURL: null });
    const saved = await put(staff, '/api/account/profile/phone', { phoneNumber: '+81 90-1234-5678' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ phoneNumber: '09012345678', photoURL: null });
    // Another user's profile is untouched.
    expect((await admin.get('/api/account/profile')).body).toEqual({ phoneNumber: null, photoURL: null });
    for (const wrong of ['12345', '090-1234-567', 'abc', '+1 415 555 0100', '0'.repeat(21)]) {
      const refused = await put(staff, '/api/account/profile/phone', { phoneNumber: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'invalid-argument', reason: 'invalid-phone' });
    }
    // Not a string at all: a client's mistake, refused by the route schema without a screen's reason.
    expect((await put(staff, '/api/account/profile/phone', { phoneNumber: 42 })).body).toEqual({
      code: 'invalid-argument',
      message: 'phoneNumber: Expected string, received number',
    });
    expect(((await staff.get('/api/account/profile')).body as { phoneNumber: string }).phoneNumber).toBe('09012345678');
    // /api/me carries it too.
    expect(((await staff.get('/api/me')).body as { user: { phoneNumber: string | null } }).user.phoneNumber).toBe('09012345678');
    expect((await put(staff, '/api/account/profile/phone', { phoneNumber: null })).body).toEqual({ phoneNumber: null, photoURL: null });
  });

  it('stores a photo, serves it to those in scope, points the user record at it and removes it', async () => {
    const saved = await put(staff, '/api/account/profile/photo', { dataUrl: dataUrl('image/png', PNG) });
    expect(saved.status, saved.text).toBe(200);
    const { photoURL } = saved.body as { photoURL: string };
    expect(photoURL).toMatch(/^\/api\/account\/photos\/[^/?]+\?v=/);
    expect(((await staff.me()) as { photoURL: string | null }).photoURL).toBe(photoURL);

    const served = await admin.get(photoURL);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await new BrowserClient(base.server.url).get(photoURL)).status).toBe(401);

    const removed = await staff.send('DELETE', '/api/account/profile/photo', undefined);
    expect(removed.body).toEqual({ phoneNumber: null, photoURL: null });
    expect(((await staff.me()) as { photoURL: string | null }).photoURL).toBeNull();
    expect((await admin.get(photoURL)).status).toBe(404);
  });

  it('serves a photo only in the staff records’ scope: elsewhere it is missing, word for word', async () => {
    const uploaded = await put(staff, '/api/account/profile/photo', { dataUrl: dataUrl('image/png', PNG) });
    const { photoURL } = uploaded.body as { photoURL: string };
    const missingURL = '/api/account/photos/no-such-user?v=1';

    // Its owner, a colleague of the same facility, the corporation's owner, its agency and the maker.
    for (const email of [null, 'admin@example.com', 'owner@example.com', 'agency@example.com', 'developer@example.com']) {
      const reader = email === null ? staff : await signedInClient(base.server, email);
      // The bytes as the browser gets them (BrowserClient decodes bodies as text).
      const served = await fetch(new URL(photoURL, base.server.url), { headers: { cookie: reader.cookieHeader } });
      expect(served.status, email ?? 'owner').toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG), email ?? 'owner').toBe(true);
    }

    // Another corporation's owner (a root domain of its own), and a household's individual user.
    const outsider = new BrowserClient(base.server.url, { from: '127.0.9.1' });
    const registered = await outsider.post('/api/auth/registration/domain', {
      name: '他社 太郎',
      email: 'owner.elsewhere@example.com',
      password: 'correct horse battery',
      domainName: 'ひまわり苑',
      domainKind: 'facility',
    });
    expect(registered.status, registered.text).toBe(200);
    for (const attacker of [outsider, await signedInClient(base.server, 'individual@example.com')]) {
      const refused = await attacker.get(photoURL);
      const missing = await attacker.get(missingURL);
      expect(refused.status).toBe(404);
      expect(refused.text).toBe(missing.text);
      expect(refused.headers['content-type']).toBe(missing.headers['content-type']);
      expect(refused.body).toEqual({ code: 'not-found', message: 'no photo' });
    }

    // The staff rule's level guard: general staff do not see administrators, nor their photos.
    const adminPhoto = ((await put(admin, '/api/account/profile/photo', { dataUrl: dataUrl('image/png', PNG) })).body as { photoURL: string }).photoURL;
    expect((await staff.get(adminPhoto)).text).toBe((await staff.get(missingURL)).text);
    expect((await admin.get(adminPhoto)).status).toBe(200);

    expect((await new BrowserClient(base.server.url).get(photoURL)).status).toBe(401);
    await staff.send('DELETE', '/api/account/profile/photo', undefined);
    await admin.send('DELETE', '/api/account/profile/photo', undefined);
  });

  it('refuses photos of other types, with other content, or too large', async () => {
    for (const [body, reason] of [
      [{ dataUrl: dataUrl('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')) }, 'invalid-photo'],
      [{ dataUrl: dataUrl('image/jpeg', PNG) }, 'invalid-photo'],
      [{ dataUrl: 'https://example.com/me.png' }, 'invalid-photo'],
      [{ dataUrl: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(PHOTO_MAX_BYTES)])) }, 'photo-too-large'],
    ] as const) {
      const refused = await put(staff, '/api/account/profile/photo', body);
      expect(refused.status, reason).toBe(400);
      expect(refused.body).toMatchObject({ reason });
    }
  });
});

describe('decodePhoto', () => {
  it('accepts a PNG and tells its type', () => {
    expect(decodePhoto(dataUrl('image/png', PNG)).type).toBe('image/png');
  });
});
