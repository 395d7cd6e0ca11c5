/** Each person's preferences and each domain's settings, as stored (defaults when none). */
import {
  DEFAULT_DOMAIN_SETTINGS,
  DEFAULT_PREFERENCES,
  domainNotificationSettingsSchema,
  notificationPreferencesSchema,
  type DomainNotificationSettings,
  type NotificationPreferences,
} from '@nemuri/shared/notifications';
import type { Queryable } from '../database/database.ts';

export async function preferencesOf(db: Queryable, uids: readonly string[]): Promise<Map<string, NotificationPreferences>> {
  const found = new Map<string, NotificationPreferences>();
  if (uids.length === 0) return found;
  const { rows } = await db.query<{ user_id: string; preferences: unknown }>(
    'select user_id, preferences from notify_preferences where user_id = any($1::text[])',
    [uids],
  );
  for (const row of rows) {
    const parsed = notificationPreferencesSchema.safeParse(row.preferences);
    found.set(row.user_id, parsed.success ? parsed.data : DEFAULT_PREFERENCES);
  }
  return found;
}

export async function domainSettingsOf(
  db: Queryable,
  domainId: string,
): Promise<DomainNotificationSettings & { lineConfigured: boolean; webhookSecretSet: boolean }> {
  const { rows } = await db.query<{ settings: unknown; line: boolean; secret: boolean }>(
    'select settings, line_token is not null as line, webhook_secret is not null as secret from notify_domain_settings where domain_id = $1',
    [domainId],
  );
  const row = rows[0];
  const parsed = domainNotificationSettingsSchema.safeParse(row?.settings);
  return { ...(parsed.success ? parsed.data : DEFAULT_DOMAIN_SETTINGS), lineConfigured: row?.line ?? false, webhookSecretSet: row?.secret ?? false };
}

/** Minutes after midnight of `atMs` in the time zone. */
export function minuteOfDay(atMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(atMs));
  return Number(parts.find((part) => part.type === 'hour')?.value) * 60 + Number(parts.find((part) => part.type === 'minute')?.value);
}

function minutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/** Whether `atMs` is in the person's quiet hours (which may span midnight). */
export function inQuietHours(quiet: NotificationPreferences['quietHours'], atMs: number, timeZone: string): boolean {
  if (quiet === null) return false;
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  const now = minuteOfDay(atMs, timeZone);
  return start > end ? now >= start || now < end : now >= start && now < end;
}
