/**
 * The schema, as an ordered list of migrations. Append new ones at the end with the next number;
 * never edit or reorder one that has shipped (a database records the ids it has applied).
 */
export interface Migration {
  /** `NNN_what_it_does`, ascending. */
  id: string;
  /** One or more statements; runs in one transaction. Must work on PGlite and PostgreSQL alike. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '001_app_meta',
    sql: `
      create table app_meta (
        key text primary key,
        value jsonb not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
];
