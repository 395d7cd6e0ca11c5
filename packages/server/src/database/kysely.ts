/**
 * A Kysely dialect over our own Database (PGlite or PostgreSQL), for libraries that speak Kysely
 * (Better Auth). It compiles PostgreSQL SQL and runs every query and transaction on an exclusive
 * session (`database.connect()`), so a Kysely transaction on PGlite's single connection is never
 * joined by someone else's query. Values come back as database.ts describes. `numAffectedRows`
 * is set for insert, update, delete and merge queries built with Kysely; raw `sql` statements
 * report rows only. Streaming is not supported. Destroying a Kysely instance leaves the database
 * open: the server owns and closes it.
 */
import {
  CompiledQuery,
  createQueryId,
  DeleteQueryNode,
  IdentifierNode,
  InsertQueryNode,
  Kysely,
  MergeQueryNode,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  RawNode,
  UpdateQueryNode,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Database, DatabaseSession } from './database.ts';

export class DatabaseDialect implements Dialect {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new DatabaseDriver(this.#database);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  // Kysely's own signature: the introspector works for any table types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}

/** A Kysely instance on `database`. */
export function createKysely<Tables>(database: Database): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new DatabaseDialect(database) });
}

class DatabaseDriver implements Driver {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new SessionConnection(await this.#database.connect());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let statement = 'begin';
    if (settings.isolationLevel !== undefined || settings.accessMode !== undefined) {
      statement = 'start transaction';
      if (settings.isolationLevel !== undefined) statement += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode !== undefined) statement += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(statement));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await connection.executeQuery(compileQuery(savepointCommand('release', name), createQueryId()));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof SessionConnection) await connection.release();
  }

  async destroy(): Promise<void> {}
}

/** `savepoint "name"`: the name goes through the compiler's identifier quoting. */
function savepointCommand(command: string, name: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
}

class SessionConnection implements DatabaseConnection {
  readonly #session: DatabaseSession;

  constructor(session: DatabaseSession) {
    this.#session = session;
  }

  async executeQuery<Row>(compiledQuery: CompiledQuery): Promise<QueryResult<Row>> {
    const { rows, rowCount } = await this.#session.query<Row>(compiledQuery.sql, compiledQuery.parameters);
    const { query } = compiledQuery;
    const writes = InsertQueryNode.is(query) || UpdateQueryNode.is(query) || DeleteQueryNode.is(query) || MergeQueryNode.is(query);
    return writes && rowCount !== null ? { rows, numAffectedRows: BigInt(rowCount) } : { rows };
  }

  // An async generator that only throws: the interface requires the method.
  // eslint-disable-next-line require-yield
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('streaming queries is not supported on this database');
  }

  release(): Promise<void> {
    return this.#session.release();
  }
}
