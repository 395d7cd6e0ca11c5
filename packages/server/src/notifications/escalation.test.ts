/**
 * Escalation and delivery end to end on a real database with real local stand-ins (push service
 * checking VAPID and decrypting, LINE API, signed-webhook receiver, the mail outbox) and a fake
 * clock: who is notified first, the next group after N minutes unacknowledged, storms as one
 * summary, quiet hours, retries with backoff, privacy of the resident's name.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../database/database.ts';
import { migrate } from '../database/migrate.ts';
import { openPglite } from '../database/pglite.ts';
import { serverIdentity } from '../documents/store.ts';
import { DOMAIN, STAFF, startHarness, type Harness } from './testing/notifyHarness.ts';

/** 12:00 in Tokyo: the day shift of 2026-03-10. */
const NOON = Date.parse('2026-03-10T03:00:00Z');
const LINE_ID = `U${'a'.repeat(32)}`;

let database: Database;
let h: Harness;

beforeAll(async () => {
  database = await openPglite(null);
  await migrate(database);
  h = await startHarness(database, NOON);
}, 120_000);

afterAll(async () => {
  await h.close();
  await database.close();
});

beforeEach(async () => {
  await h.reset(NOON);
  await h.settings({}, 'webhook-secret-for-tests');
  await database.query(`update notify_domain_settings set settings = jsonb_set(settings, '{webhookUrl}', to_jsonb($1::text))`, [h.webhook.url]);
  await h.onDuty('2026-03-10', 'day', [
    { uid: STAFF.unitA.uid, unit: 'A' },
    { uid: STAFF.unitB.uid, unit: 'B' },
  ]);
  for (const member of Object.values(STAFF)) {
    await h.prefer(member.uid, { channels: { push: true, mail: true, line: true }, lineUserId: LINE_ID });
    await h.subscribe(member.uid);
  }
});

describe('escalation', () => {
  it('notifies the on-duty staff of the room’s unit first, on every channel they chose', async () => {
    const alertId = await h.openAlert('room-1', 'button');
    await h.push.waitFor(1);
    const rows = await h.rows();
    expect(
      rows
        .filter((row) => row.channel !== 'webhook')
        .map((row) => `${row.recipient}/${row.channel}/${row.status}`)
        .sort(),
    ).toEqual([`${STAFF.unitA.uid}/line/sent`, `${STAFF.unitA.uid}/mail/sent`, `${STAFF.unitA.uid}/push/sent`]);
    // The push service checked the VAPID JWT and decrypted the payload with the subscription's keys.
    expect(h.push.refused).toEqual([]);
    const push = h.push.received[0];
    expect(push?.message).toMatchObject({
      kind: 'alert',
      alertId,
      roomId: 'room-1',
      alertType: 'button',
      url: '/room/room-1',
      title: '【緊急】101号室 ナースコール',
    });
    expect(push?.headers.urgency).toBe('high');
    expect(push?.jwt.sub).toBe('mailto:ops@nemuri.example');
    // Privacy by default: no resident's name anywhere.
    expect(JSON.stringify(push?.message)).not.toContain('入居者1');
    const [mail] = await h.outbox();
    expect(mail?.recipient).toBe(STAFF.unitA.email);
    expect(mail?.subject).toBe('【ねむりモニター】【緊急】101号室 ナースコール');
    expect(mail?.body).toContain('https://nemuri.example/room/room-1');
    expect(mail?.body).not.toContain('入居者1');
    expect(h.line.pushes).toEqual([expect.objectContaining({ to: LINE_ID, text: expect.stringContaining('101号室 ナースコール') })]);
    expect(h.line.pushes[0]?.text).not.toContain('入居者1');
    expect(h.line.pushes[0]?.retryKey).toMatch(/^[0-9a-f-]{36}$/);
    // The webhook: signed, the opened event.
    expect(h.webhook.hooks).toEqual([
      expect.objectContaining({
        signatureValid: true,
        status: 200,
        body: expect.objectContaining({ event: 'alert.opened', alert: expect.objectContaining({ id: alertId, roomName: '101号室', residentName: null }) }),
      }),
    ]);
    const { rows: steps } = await database.query('select step, target, recipients from notify_escalation_steps where alert_id = $1', [alertId]);
    expect(steps).toEqual([{ step: 0, target: 'onDuty', recipients: 1 }]);
  });

  it('goes to the administrators after 5 minutes unacknowledged, then the owners, and stops at the acknowledgement', async () => {
    const alertId = await h.openAlert('room-2', 'noBreathing');
    expect(new Set((await h.rows('push')).map((row) => row.recipient))).toEqual(new Set([STAFF.unitB.uid]));
    await h.advance(4 * 60_000);
    expect((await h.rows('push')).length).toBe(1);
    await h.advance(60_000);
    // Administrators of the facility; the corporation's owner is the next step, 10 minutes later.
    expect((await h.rows('push')).map((row) => `${row.step}/${row.recipient}`)).toEqual([`0/${STAFF.unitB.uid}`, `1/${STAFF.admin.uid}`]);
    await h.store.update(serverIdentity('someone'), `alerts/${alertId}`, {
      acknowledgedBy: STAFF.admin.uid,
      acknowledgedAt: new Date(h.clock.now).toISOString(),
    });
    await h.service.settled();
    await h.advance(30 * 60_000);
    const { rows: escalation } = await database.query<{ closed_reason: string; steps: number }>(
      'select closed_reason, (select count(*)::int from notify_escalation_steps s where s.alert_id = e.alert_id) as steps from notify_escalations e where alert_id = $1',
      [alertId],
    );
    expect(escalation).toEqual([{ closed_reason: 'acknowledged', steps: 2 }]);
    expect(h.webhook.hooks.map((hook) => (hook.body as { event: string }).event)).toEqual(['alert.opened', 'alert.acknowledged']);
  });

  it('reaches the corporation’s owner when the facility’s administrators do not acknowledge', async () => {
    await h.openAlert('room-2', 'noBreathing');
    await h.advance(5 * 60_000);
    await h.advance(10 * 60_000);
    expect((await h.rows('push')).map((row) => `${row.step}/${row.recipient}`)).toEqual([
      `0/${STAFF.unitB.uid}`,
      `1/${STAFF.admin.uid}`,
      `2/${STAFF.owner.uid}`,
    ]);
  });

  it('at 02:00 reaches the staff of the night shift that began the evening before, and keeps their quiet hours across midnight', async () => {
    // 02:00 in Tokyo on 2026-03-11: the night shift of 2026-03-10 (21:00–07:00) is on.
    h.clock.now = Date.parse('2026-03-10T17:00:00Z');
    await h.onDuty('2026-03-10', 'night', [{ uid: STAFF.unitB.uid, unit: 'A' }]);
    // The calendar day's shifts are not on duty yet: neither tonight's (it begins at 21:00) nor the day shift.
    await h.onDuty('2026-03-11', 'night', [{ uid: STAFF.unitA.uid, unit: null }]);
    await h.onDuty('2026-03-11', 'day', [{ uid: STAFF.unitA.uid, unit: null }]);
    await h.prefer(STAFF.unitB.uid, { channels: { push: true, mail: false, line: false }, quietHours: { start: '22:00', end: '06:00' } });
    const call = await h.openAlert('room-1', 'button');
    await h.push.waitFor(1);
    expect((await h.rows('push')).map((row) => `${row.alert_id}/${row.step}/${row.recipient}/${row.status}`)).toEqual([`${call}/0/${STAFF.unitB.uid}/sent`]);
    expect(h.push.received[0]?.message.body).toContain('02:00 発生');
    const { rows: steps } = await database.query('select step, target, recipients from notify_escalation_steps where alert_id = $1', [call]);
    expect(steps).toEqual([{ step: 0, target: 'onDuty', recipients: 1 }]);
    // A bed exit at the same hour is held back by the quiet hours that span midnight (critical alerts are not).
    const exit = await h.openAlert('room-3', 'outOfBed');
    expect((await h.rows('push')).filter((row) => row.alert_id === exit).map((row) => `${row.recipient}/${row.status}`)).toEqual([
      `${STAFF.unitB.uid}/skipped`,
    ]);
  });

  it('hands over to the day shift at the end of the night', async () => {
    // 07:00 in Tokyo on 2026-03-11: the night of 2026-03-10 is over.
    h.clock.now = Date.parse('2026-03-10T22:00:00Z');
    await h.onDuty('2026-03-10', 'night', [{ uid: STAFF.unitB.uid, unit: null }]);
    await h.onDuty('2026-03-11', 'day', [{ uid: STAFF.unitA.uid, unit: null }]);
    await h.openAlert('room-2', 'button');
    await h.push.waitFor(1);
    expect((await h.rows('push')).map((row) => `${row.step}/${row.recipient}`)).toEqual([`0/${STAFF.unitA.uid}`]);
  });

  it('skips to the next group at once when nobody is on duty', async () => {
    await database.query('delete from notify_shifts');
    const alertId = await h.openAlert('room-3', 'heartRateHigh');
    const { rows } = await database.query('select step, target, recipients from notify_escalation_steps where alert_id = $1 order by step', [alertId]);
    expect(rows).toEqual([
      { step: 0, target: 'onDuty', recipients: 0 },
      { step: 1, target: 'administrators', recipients: 1 },
    ]);
  });

  it('turns a storm into one summary per person and channel', async () => {
    await h.prefer(STAFF.unitA.uid, { channels: { push: true, mail: false, line: false } });
    for (let index = 1; index <= 30; index += 2) await h.openAlert(`room-${index}`, 'deviceOffline');
    const pushes = await h.rows('push');
    const mine = pushes.filter((row) => row.recipient === STAFF.unitA.uid);
    expect(mine.filter((row) => row.status === 'sent').length).toBe(3);
    expect(mine.filter((row) => row.status === 'held').length).toBe(12);
    await h.advance(5 * 60_000 + 1000);
    const after = (await h.rows('push')).filter((row) => row.recipient === STAFF.unitA.uid);
    expect(after.filter((row) => row.status === 'summarized').length).toBe(12);
    const summaries = after.filter((row) => row.alert_id.startsWith('summary-'));
    expect(summaries.map((row) => row.status)).toEqual(['sent']);
    const summary = h.push.received.find((push) => push.message.kind === 'summary');
    expect(summary?.message.title).toBe('【まとめ】アラート 12 件');
  });

  it('keeps quiet hours for all but critical alerts', async () => {
    await h.prefer(STAFF.unitA.uid, { channels: { push: true, mail: false, line: false }, quietHours: { start: '11:00', end: '13:00' } });
    await h.openAlert('room-1', 'outOfBed');
    await h.openAlert('room-3', 'noBreathing');
    const mine = (await h.rows('push')).filter((row) => row.recipient === STAFF.unitA.uid);
    expect(mine.map((row) => row.status)).toEqual(['skipped', 'sent']);
  });

  it('names the resident only when the domain allows it', async () => {
    await h.settings({ showResidentName: true, webhookUrl: h.webhook.url });
    await h.openAlert('room-1', 'button');
    await h.push.waitFor(1);
    expect(h.push.received[0]?.message.body).toContain('入居者: 入居者1様');
    expect((h.webhook.hooks[0]?.body as { alert: { residentName: string } }).alert.residentName).toBe('入居者1');
    expect((await h.outbox())[0]?.body).toContain('入居者: 入居者1様');
    expect(h.line.pushes[0]?.text).toContain('入居者: 入居者1様');
  });

  it('turns a whole floor going offline into three pushes and, a minute later, one summary of the rest — not thirty', async () => {
    // One person covers every room of the floor; push only.
    await h.onDuty('2026-03-10', 'day', [{ uid: STAFF.unitA.uid, unit: null }]);
    await h.prefer(STAFF.unitA.uid, { channels: { push: true, mail: false, line: false } });
    for (let index = 1; index <= 30; index += 1) await h.openAlert(`room-${index}`, 'deviceOffline');
    const mine = async () => (await h.rows('push')).filter((row) => row.recipient === STAFF.unitA.uid);
    const { rows: devices } = await database.query<{ id: string }>('select id from notify_push_subscriptions where user_id = $1', [STAFF.unitA.uid]);
    // What reached this person's phone (the administrators are told too, from the next step on).
    const phone = () => h.push.received.filter((push) => `sub-${push.subscriptionId}` === devices[0]?.id);
    expect((await mine()).filter((row) => row.status === 'sent').length).toBe(3);
    expect((await mine()).filter((row) => row.status === 'held').length).toBe(27);
    expect(phone().length).toBe(3);
    // Not yet: the other rooms may still follow.
    await h.advance(30_000);
    expect(phone().length).toBe(3);
    await h.advance(31_000);
    const summary = phone()[3]?.message;
    expect(summary).toMatchObject({ kind: 'summary', title: '【まとめ】アラート 27 件', url: '/monitoring', acknowledgeUrl: null });
    expect(summary?.body).toBe('短時間に 27 件のアラートがありました（104号室、105号室、106号室、107号室、108号室 ほか22室）。見守り画面で確認してください。');
    expect(JSON.stringify(summary)).not.toContain('入居者');
    expect((await mine()).filter((row) => row.status === 'summarized').length).toBe(27);
    // Quiet afterwards: nothing more for the same storm, within the window or after it.
    await h.advance(10 * 60_000);
    expect(phone().length).toBe(4);
  });

  it('retries a failing webhook with backoff and logs every attempt', async () => {
    h.webhook.failures = [500, 503];
    const alertId = await h.openAlert('room-1', 'button');
    expect((await h.rows('webhook')).map((row) => row.status)).toEqual(['queued']);
    await h.advance(5_000);
    expect(h.webhook.hooks.length).toBe(1);
    await h.advance(6_000);
    expect(h.webhook.hooks.length).toBe(2);
    await h.advance(30_000);
    expect(h.webhook.hooks.map((hook) => hook.status)).toEqual([500, 503, 200]);
    // The same delivery id and body on every attempt, a valid signature on each.
    expect(new Set(h.webhook.hooks.map((hook) => hook.delivery)).size).toBe(1);
    expect(h.webhook.hooks.every((hook) => hook.signatureValid)).toBe(true);
    const { rows } = await database.query<{ attempt: number; ok: boolean; status_code: number }>(
      `select a.attempt, a.ok, a.status_code from notify_attempts a join notify_queue q on q.id = a.queue_id where q.alert_id = $1 and q.channel = 'webhook' order by a.id`,
      [alertId],
    );
    expect(rows).toEqual([
      { attempt: 1, ok: false, status_code: 500 },
      { attempt: 2, ok: false, status_code: 503 },
      { attempt: 3, ok: true, status_code: 200 },
    ]);
  });

  it('deletes a subscription the push service calls gone', async () => {
    await database.query(`update notify_push_subscriptions set endpoint = replace(endpoint, '/push/', '/push/x') where user_id = $1`, [STAFF.unitA.uid]);
    await h.openAlert('room-1', 'button');
    expect((await h.rows('push')).filter((row) => row.recipient === STAFF.unitA.uid).map((row) => row.status)).toEqual(['failed']);
    const { rows } = await database.query('select 1 from notify_push_subscriptions where user_id = $1', [STAFF.unitA.uid]);
    expect(rows).toEqual([]);
    expect(DOMAIN).toBe('notify-facility');
  });
});
