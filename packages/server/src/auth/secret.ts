/**
 * The secret that signs session cookies: AUTH_SECRET when given, else a random one generated on
 * the first start and kept in app_meta, so that restarts (and every process sharing one
 * PostgreSQL) keep sessions valid. Changing it signs everybody out.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../database/database.ts';

const KEY = 'auth_secret';

export async function resolveAuthSecret(configured: string | null, database: Database): Promise<string> {
  if (configured !== null) return configured;
  // Two processes starting at once: the first insert wins and both read it back.
  await database.query(`insert into app_meta (key, value) values ($1, to_jsonb($2::text)) on conflict (key) do nothing`, [
    KEY,
    randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await database.query<{ value: unknown }>('select value from app_meta where key = $1', [KEY]);
  const stored = rows[0]?.value;
  if (typeof stored !== 'string' || stored.length === 0) throw new Error(`app_meta.${KEY} is not a secret: delete the row to have a new one generated`);
  return stored;
}
