/**
 * The installation's VAPID key pair (RFC 8292): made once, on first use, and kept in app_meta so
 * that every server process and every restart signs with the same key (a new key would orphan
 * every browser's subscription). The private key never leaves the server.
 * The library is loaded on first use (see channels/webPushChannel.ts).
 */
import type { Queryable } from '../database/database.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY = 'notify_vapid_keys';

function isVapidKeys(value: unknown): value is VapidKeys {
  return (
    typeof value === 'object' && value !== null && typeof (value as VapidKeys).publicKey === 'string' && typeof (value as VapidKeys).privateKey === 'string'
  );
}

export async function vapidKeysOf(db: Queryable): Promise<VapidKeys> {
  const { default: webPush } = await import('web-push');
  const fresh = webPush.generateVAPIDKeys();
  // Two processes starting at once: the first insert wins and both read it back.
  await db.query(`insert into app_meta (key, value) values ($1, $2::jsonb) on conflict (key) do nothing`, [KEY, JSON.stringify(fresh)]);
  const { rows } = await db.query<{ value: unknown }>('select value from app_meta where key = $1', [KEY]);
  const stored = rows[0]?.value;
  if (!isVapidKeys(stored)) throw new Error('app_meta holds no valid VAPID keys');
  return stored;
}
