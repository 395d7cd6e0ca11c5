/**
 * Suites that must hold on both databases (a rule or a write path that each database runs its own
 * way): the suite is written once, against a database it opens through `open`, and run once on
 * PGlite and once on a fresh PostgreSQL schema.
 */
import { describe } from 'vitest';
import type { Database } from '../database/database.ts';
import { openPglite } from '../database/pglite.ts';
import { createTestSchema, describePostgres } from './postgres.ts';

/** A database of its own for one suite run, and what ends it. */
export interface TestDatabase {
  database: Database;
  close(): Promise<void>;
}

/** An in-memory PGlite. */
export async function openTestPglite(): Promise<TestDatabase> {
  const database = await openPglite(null);
  return { database, close: () => database.close() };
}

/** A pool confined to a fresh PostgreSQL schema; closing it drops the schema. */
export async function openTestSchemaDatabase(): Promise<TestDatabase> {
  const schema = await createTestSchema();
  let database: Database;
  try {
    database = await schema.open();
  } catch (error) {
    await schema.drop();
    throw error;
  }
  return {
    database,
    close: async () => {
      await database.close();
      await schema.drop();
    },
  };
}

/** `<title> on PGlite` and `<title> on PostgreSQL` (skipped, loudly, only as describePostgres is). */
export function describeOnBothDatabases(title: string, suite: (open: () => Promise<TestDatabase>) => void): void {
  describe(`${title} on PGlite`, () => suite(openTestPglite));
  describePostgres(`${title} on PostgreSQL`, () => suite(openTestSchemaDatabase));
}
