/**
 * How long one statement or transaction may hold the database (security issue, finding 4: one
 * tenant's transaction must not hold up everyone). docs/security.md "Fair sharing" explains each.
 *
 * PostgreSQL enforces these on every pooled connection (postgresql.ts). PGlite does not: it runs as
 * WebAssembly without timers, `statement_timeout` is accepted and ignored (pglite.test.ts shows it),
 * and one statement cannot be interrupted. There the bound is on the transaction instead: a
 * transaction (or exclusive session) that has held the one connection longer than
 * `pgliteTransactionMs` gets its next statement refused and is rolled back.
 *
 * Work that is long by nature asks for more explicitly: migrations run without a limit, and
 * `database.transaction(fn, { statementTimeoutMs })` gives one transaction its own.
 */
export const STATEMENT_LIMITS = {
  /** One statement (PostgreSQL `statement_timeout`). The longest ordinary statement takes well under a second. */
  statementTimeoutMs: 30_000,
  /** Waiting for a row or table lock (PostgreSQL `lock_timeout`). */
  lockTimeoutMs: 10_000,
  /** A transaction left open doing nothing (PostgreSQL `idle_in_transaction_session_timeout`). */
  idleInTransactionMs: 60_000,
  /** A whole transaction or exclusive session on PGlite's one connection. */
  pgliteTransactionMs: 30_000,
} as const;

/** SQLSTATE 57014 query_canceled, as PostgreSQL reports a statement timeout. */
export const QUERY_CANCELED = '57014';
