/**
 * Tests against a real PostgreSQL: TEST_DATABASE_URL (default postgres://root@127.0.0.1:5432/test).
 * Each test file works in a schema of its own, created fresh and dropped afterwards. Without a
 * reachable PostgreSQL these tests fail, unless NEMURI_SKIP_POSTGRES=1 says to skip them.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import type { Database } from '../database/database.ts';
import { openPostgres } from '../database/postgresql.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

export const SKIP_POSTGRES = process.env.NEMURI_SKIP_POSTGRES === '1';

if (SKIP_POSTGRES) {
  console.warn(
    '\n' +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n' +
      '!!! NEMURI_SKIP_POSTGRES=1: the PostgreSQL tests are SKIPPED. Production runs on\n' +
      '!!! PostgreSQL: run them before shipping (TEST_DATABASE_URL, default\n' +
      `!!! ${TEST_DATABASE_URL}).\n` +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n',
  );
}

/** `describe` for PostgreSQL tests: skipped (loudly, see above) only when NEMURI_SKIP_POSTGRES=1. */
export const describePostgres = SKIP_POSTGRES ? describe.skip : describe;

export interface TestSchema {
  schema: string;
  /** TEST_DATABASE_URL confined to the schema (search_path in the URL's options). */
  url: string;
  /** A new connection pool confined to the schema. */
  open(): Promise<Database>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

export async function createTestSchema(): Promise<TestSchema> {
  let admin: Database;
  try {
    admin = await openPostgres({ url: TEST_DATABASE_URL, maxConnections: 1 });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL is needed for these tests at ${TEST_DATABASE_URL} and does not answer (${reason}). ` +
        'Start PostgreSQL, point TEST_DATABASE_URL at one, or set NEMURI_SKIP_POSTGRES=1 to skip these tests.',
      { cause: error },
    );
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin.exec(`create schema ${schema}`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    open: () => openPostgres({ url: TEST_DATABASE_URL, searchPath: schema }),
    async drop() {
      try {
        await admin.exec(`drop schema if exists ${schema} cascade`);
      } finally {
        await admin.close();
      }
    },
  };
}
