/**
 * The documented answers of a person's own notification routes are the real ones
 * (responseConformance.ts): staff read the push key, read and set their preferences, register a
 * browser and remove it; another person's browser (answered like a missing one), a refused body, a
 * maker's account (not facility staff) and a signed-out caller give the errors.
 */
import { NOTIFICATIONS_API as API } from '@nemuri/shared/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { startConformanceServer, type ConformanceServer } from './responseConformance.ts';

const SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/responses-test',
  keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
  label: '詰所のタブレット',
};

describe('documented response schemas match the answers: personal notifications', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);
  const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-notifications-');
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('the push key, preferences and subscriptions: success, refused, another person’s, not staff and signed out', async () => {
    const staff = await running.client('staff@example.com');
    const admin = await running.client('admin@example.com');
    const developer = await running.client('developer@example.com');
    const outsider = await running.client();
    const key = `${API}/vapid-public-key`;
    expect(conforms('GET', key, await staff.get(key)).status).toBe(200);
    conforms('GET', key, await outsider.get(key));

    const preferences = `${API}/preferences`;
    const mine = conforms('GET', preferences, await staff.get(preferences)).body as { channels: Record<string, boolean> };
    const changed = { ...mine, channels: { ...mine.channels, mail: true } };
    expect(conforms('PUT', preferences, await put(staff, preferences, changed)).body).toEqual(changed);
    conforms('PUT', preferences, await put(staff, preferences, { ...changed, lineUserId: 'nobody' }));
    expect(conforms('GET', preferences, await developer.get(preferences)).status).toBe(403);
    conforms('PUT', preferences, await put(outsider, preferences, changed));

    const subscriptions = `${API}/subscriptions`;
    expect(conforms('GET', subscriptions, await staff.get(subscriptions)).body).toEqual({ subscriptions: [] });
    const added = conforms('POST', subscriptions, await staff.post(subscriptions, SUBSCRIPTION));
    const [subscription] = (added.body as { subscriptions: { id: string }[] }).subscriptions;
    expect(subscription).toBeDefined();
    conforms('POST', subscriptions, await staff.post(subscriptions, { ...SUBSCRIPTION, endpoint: 'https://push.example.com/x' }));
    conforms('POST', subscriptions, await developer.post(subscriptions, SUBSCRIPTION));
    conforms('GET', subscriptions, await outsider.get(subscriptions));

    const one = `${API}/subscriptions/:id`;
    expect(conforms('DELETE', one, await admin.send('DELETE', `${subscriptions}/${subscription?.id}`, undefined)).status).toBe(404);
    expect(conforms('DELETE', one, await staff.send('DELETE', `${subscriptions}/${subscription?.id}`, undefined)).body).toEqual({ subscriptions: [] });
    conforms('DELETE', one, await outsider.send('DELETE', `${subscriptions}/${subscription?.id}`, undefined));
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      `GET ${API}/vapid-public-key 200`,
      `GET ${API}/preferences 200`,
      `PUT ${API}/preferences 200`,
      `GET ${API}/subscriptions 200`,
      `POST ${API}/subscriptions 200`,
      `DELETE ${API}/subscriptions/{id} 200`,
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
