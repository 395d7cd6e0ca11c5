/**
 * Live results: every subscribed record, query or count, kept up to date from the change feed
 * (documents/changeFeed.ts).
 *
 * A result is evaluated through DocumentStore with the subscriber's own claims, so the same scope
 * rules and level checks apply as over HTTP. Subscribers with the same claims and the same target
 * (one user's tabs, a screen's repeated widgets) share one result: one evaluation per change, not
 * one per socket. After a change a result is evaluated again only when the change could alter it:
 * the same record, or the same collection (or collection group) within the subscriber's scope.
 * A burst of changes costs at most two evaluations per result (the one under way and one more
 * after it), and subscribers hear only of results that differ from what they last got.
 * Most changes need no evaluation at all: the changed records are read once for all results, and
 * each record or query result takes them in in memory (queryWindow.ts) with the same scope and
 * level checks as a read. A result evaluates again only when memory cannot tell (a record leaving
 * a full page, the scope itself changing, counts, a level-1 user's scope that links expire from,
 * a database whose string order is not byte order).
 * Ordering: changed records are read in the order their changes arrived, and a result skips the
 * rows of changes that an evaluation started after them already covers (`generation`).
 * Evaluations take turns, a few at a time (`EVALUATION_SLOTS`): a write seen by a thousand results
 * then leaves the database's connections free for requests in between, instead of queueing a
 * thousand reads in front of them.
 */
import { factsNeeded, inScope, type Claims, type DataScope } from '@nemuri/shared/documents/access';
import { collectionByGroup, type CollectionSpec } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import type { Snapshot } from '@nemuri/shared/documents/live';
import { parseCollectionPath, parseDocumentPath } from '@nemuri/shared/documents/paths';
import { validateQuery } from '@nemuri/shared/documents/query';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { ChangeBatch, ChangeFeed, DocumentChange } from '../documents/changeFeed.ts';
import { byteOrderCollation } from '../documents/evaluate.ts';
import { queryableData, seesServerOnly, type DocumentStore, type Row } from '../documents/store.ts';
import { QueryWindow, readAheadLimit } from './queryWindow.ts';

/** One subscription's receiving end. */
export interface LiveMember {
  /** A new snapshot, as the JSON of `Snapshot`. */
  snapshot(json: string): void;
  /** The subscription failed and is gone. */
  fail(error: DocumentError): void;
}

export interface Logger {
  warn(object: object, message: string): void;
}

/** A checked target: what it reads and which changes concern it. */
type Watch =
  | { kind: 'document'; path: string; spec: CollectionSpec }
  | { kind: 'query' | 'count'; spec: CollectionSpec; collection: string; group: boolean; query: unknown; shown: number; fromEnd: boolean };

/** Checks a subscription's target; throws invalid-argument like the HTTP API does. */
export function parseTarget(target: unknown): Watch {
  if (isPlainObject(target)) {
    if (typeof target.document === 'string') {
      const ref = parseDocumentPath(target.document);
      return { kind: 'document', path: ref.documentPath, spec: ref.spec };
    }
    const kind = 'query' in target ? 'query' : 'count' in target ? 'count' : null;
    if (kind !== null) {
      const query = target[kind];
      const valid = validateQuery(query);
      const page = { shown: valid.limit, fromEnd: valid.fromEnd };
      if (valid.collectionGroup) {
        const spec = collectionByGroup(valid.collection);
        if (spec === undefined) throw new DocumentError('invalid-argument', MESSAGES.unknownCollection(valid.collection));
        return { kind, spec, collection: valid.collection, group: true, query, ...page };
      }
      const ref = parseCollectionPath(valid.collection);
      return { kind, spec: ref.spec, collection: ref.path, group: false, query, ...page };
    }
  }
  throw new DocumentError('invalid-argument', MESSAGES.invalidData('subscribe'));
}

/** Evaluations at once: below the PostgreSQL pool's 10 connections, so that requests still get one. */
const EVALUATION_SLOTS = 4;

/** First come, first served turns for at most `slots` tasks at once. */
class Turns {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(slots: number) {
    this.#free = slots;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#free++;
      else next();
    }
  }
}

/** The stored state a row is in (queryWindow.ts, WindowRow.tag). */
function tagOf(row: Row): string {
  return `${row.version}@${row.created_at.getTime()}`;
}

/** The changed records of one batch, read once for every result, and their records' JSON. */
class ChangedRows {
  readonly #json = new Map<string, string>();
  /** Query answers made in this batch, by audience: see QueryWindow.snapshotJson. */
  readonly #answers = new Map<string, Map<string, string>>();

  constructor(
    readonly rows: ReadonlyMap<string, Row>,
    readonly store: DocumentStore,
  ) {}

  /** The record's JSON as these claims read it (the same for everyone who sees server-only fields, or not). */
  json(spec: CollectionSpec, row: Row, claims: Claims): string {
    const key = `${seesServerOnly(claims) ? 1 : 0}${row.path}`;
    let json = this.#json.get(key);
    if (json === undefined) {
      json = JSON.stringify(this.store.recordOf(spec, row, claims));
      this.#json.set(key, json);
    }
    return json;
  }

  /** The answers shared by subscribers reading records as these claims do. */
  answersFor(claims: Claims): Map<string, string> {
    const audience = seesServerOnly(claims) ? 'all' : 'public';
    let answers = this.#answers.get(audience);
    if (answers === undefined) {
      answers = new Map();
      this.#answers.set(audience, answers);
    }
    return answers;
  }
}

class LiveResult {
  readonly members = new Set<LiveMember>();
  /** The JSON each member last got. */
  readonly #sent = new WeakMap<LiveMember, string>();
  #latest: string | null = null;
  #scope: DataScope | null = null;
  /** A query result held in memory, when it can be (queryWindow.ts). */
  #window: QueryWindow | null = null;
  #running = false;
  #again = false;
  /** Counts evaluations started: rows read before one started are older than its answer. */
  generation = 0;

  constructor(
    readonly key: string,
    readonly claims: Claims,
    readonly watch: Watch,
    readonly store: DocumentStore,
    readonly turns: Turns,
    /** Whether changes may be taken in memory (the database orders strings by bytes). */
    readonly inMemory: () => boolean,
    readonly stats: LiveStats,
    readonly onFailed: (result: LiveResult, error: unknown) => void,
  ) {}

  join(member: LiveMember): void {
    this.members.add(member);
    // The latest result is current unless a change is being looked at; then the member gets it then.
    if (this.#running) return;
    if (this.#latest === null) this.refresh();
    else this.#deliver(member, this.#latest);
  }

  /** Whether the change could alter this result. */
  concerns(change: DocumentChange): boolean {
    if (this.#scopeFactsChanged(change)) return true;
    const watch = this.watch;
    if (watch.kind === 'document') return change.path === watch.path;
    if (watch.group ? change.collectionGroup !== watch.spec.group : change.collection !== watch.collection) return false;
    const scope = this.#scope;
    if (watch.spec.tenancy.kind === 'global' || scope === null) return true;
    return inScope(scope, change.tenant) || (change.previousTenant !== undefined && inScope(scope, change.previousTenant));
  }

  /**
   * Changes that move the scope itself (access.ts): a level-1 user's rooms are the rooms naming
   * them as owner, an agency's domains include its partners.
   */
  #scopeFactsChanged(change: DocumentChange): boolean {
    const level = this.claims.accessLevel;
    if (level === ROLE_LEVELS.individualUser) return change.collectionGroup === 'rooms';
    if (level >= ROLE_LEVELS.agency && level < ROLE_LEVELS.developer) return change.collection === `domains/${this.claims.domainId}/partners`;
    return false;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Whether these changes can be taken in from the changed records alone (`take`). */
  takesRows(changes: readonly DocumentChange[]): boolean {
    if (!this.inMemory() || this.#latest === null || this.watch.kind === 'count') return false;
    if (this.watch.kind === 'query' && this.#window === null) return false;
    // A level-1 scope ends with its report links' expiry, which no change announces.
    if (factsNeeded(this.claims).rooms) return false;
    return !changes.some((change) => this.#scopeFactsChanged(change));
  }

  /**
   * Takes in the changed records, read after the changes that arrived when `generation` was
   * current; evaluates again when memory cannot tell.
   */
  take(changes: readonly DocumentChange[], changed: ChangedRows, generation: number): void {
    if (this.#running) {
      this.refresh();
      return;
    }
    // An evaluation started after these changes has answered with them already.
    if (generation !== this.generation || this.#scope === null) return;
    const scope = this.#scope;
    const watch = this.watch;
    let json: string;
    if (watch.kind === 'document') {
      const row = changed.rows.get(watch.path);
      if (row !== undefined && !this.store.visibleRow(watch.spec, this.claims, scope, row)) {
        this.refresh();
        return;
      }
      json = row === undefined ? '{"document":null}' : `{"document":${changed.json(watch.spec, row, this.claims)}}`;
    } else {
      const window = this.#window;
      if (window === null) return this.refresh();
      let taken = false;
      for (const path of new Set(changes.map((change) => change.path))) {
        const row = changed.rows.get(path);
        const readable = row !== undefined && this.store.visibleRow(watch.spec, this.claims, scope, row) ? row : null;
        const outcome = window.take(path, readable === null ? null : { path, data: queryableData(readable), tag: tagOf(readable) }, () =>
          changed.json(watch.spec, readable as Row, this.claims),
        );
        if (outcome === 'unknown') {
          this.refresh();
          return;
        }
        taken ||= outcome === 'changed';
      }
      if (!taken) return;
      json = window.snapshotJson(changed.answersFor(this.claims));
    }
    this.stats.taken++;
    this.#latest = json;
    for (const member of this.members) this.#deliver(member, json);
  }

  /** Evaluates again: now, or right after the evaluation under way. */
  refresh(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.#run();
  }

  async #run(): Promise<void> {
    try {
      do {
        this.#again = false;
        this.generation++;
        this.stats.evaluated++;
        const json = await this.turns.run(async () => {
          this.#scope = await this.store.scopeOf(this.claims, undefined, this.watch.spec);
          return this.#evaluate();
        });
        this.#latest = json;
        for (const member of this.members) this.#deliver(member, json);
      } while (this.#again && this.members.size > 0);
    } catch (error) {
      this.onFailed(this, error);
    } finally {
      this.#running = false;
    }
  }

  #deliver(member: LiveMember, json: string): void {
    if (this.#sent.get(member) === json) return;
    this.#sent.set(member, json);
    member.snapshot(json);
  }

  /** The snapshot's JSON, read through the store. */
  async #evaluate(): Promise<string> {
    const watch = this.watch;
    switch (watch.kind) {
      case 'document':
        return JSON.stringify({ document: (await this.store.get(this.claims, watch.path))?.document ?? null } satisfies Snapshot);
      case 'query': {
        if (!this.inMemory()) {
          this.#window = null;
          return JSON.stringify({ documents: await this.store.query(this.claims, watch.query) } satisfies Snapshot);
        }
        // Read a few records beyond the page, so that one leaving it is replaced from memory.
        const shown = watch.shown;
        const { spec, query, cursor, rows } = await this.store.queryRows(this.claims, {
          ...(watch.query as object),
          [watch.fromEnd ? 'limitToLast' : 'limit']: readAheadLimit(shown),
        });
        const answer = rows.map((row) => ({
          path: row.path,
          data: queryableData(row),
          tag: tagOf(row),
          json: JSON.stringify(this.store.recordOf(spec, row, this.claims)),
        }));
        this.#window = QueryWindow.of(query, cursor, answer, shown);
        if (this.#window !== null) return this.#window.snapshotJson();
        const page = query.fromEnd ? answer.slice(Math.max(0, answer.length - shown)) : answer.slice(0, shown);
        return `{"documents":[${page.map((row) => row.json).join(',')}]}`;
      }
      case 'count':
        return JSON.stringify({ count: await this.store.count(this.claims, watch.query) } satisfies Snapshot);
    }
  }
}

/** How results were kept current: taken in memory, or evaluated through the store. */
export interface LiveStats {
  taken: number;
  evaluated: number;
}

/** More changed records than this in one batch are not read for the results: they evaluate again. */
const MAX_CHANGED_ROWS = 200;

export class LiveResults {
  readonly #results = new Map<string, LiveResult>();
  readonly #turns = new Turns(EVALUATION_SLOTS);
  readonly stats: LiveStats = { taken: 0, evaluated: 0 };
  readonly #store: DocumentStore;
  readonly #log: Logger;
  readonly #unsubscribe: () => void;
  /** Known once the database said its collation; until then every change evaluates again. */
  #inMemory = false;
  /** Reads of changed records, one after another in the order their changes came. */
  #reading: Promise<void> = Promise.resolve();

  constructor(store: DocumentStore, feed: ChangeFeed, log: Logger, options: { inMemory?: boolean } = {}) {
    this.#store = store;
    this.#log = log;
    this.#unsubscribe = feed.subscribe((batch) => this.#changed(batch));
    if (options.inMemory !== false) {
      store.database.query<{ collation: string }>('select datcollate as collation from pg_database where datname = current_database()').then(
        ({ rows }) => {
          this.#inMemory = byteOrderCollation(rows[0]?.collation ?? '');
          if (!this.#inMemory)
            log.warn(
              { collation: rows[0]?.collation },
              'live: the database does not order strings by bytes; every change re-reads the live results it concerns',
            );
        },
        (error: unknown) => log.warn({ err: error }, 'live: could not read the database collation; every change re-reads the live results it concerns'),
      );
    }
  }

  /** How many distinct results are live (for tests and measurements). */
  get size(): number {
    return this.#results.size;
  }

  /** Whether changes are taken in memory (the database's collation allows it). */
  get inMemory(): boolean {
    return this.#inMemory;
  }

  /** Resolves once no changed records are being read and no result is evaluating (for tests). */
  async idle(): Promise<void> {
    for (;;) {
      const reading = this.#reading;
      await reading;
      if (reading === this.#reading && ![...this.#results.values()].some((result) => result.running)) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /**
   * Subscribes the member to the target with these claims: it gets a first snapshot soon, then one
   * per change of the result. Throws invalid-argument for a malformed target. Returns the
   * unsubscribe function.
   */
  add(claims: Claims, target: unknown, member: LiveMember): () => void {
    const watch = parseTarget(target);
    const key = JSON.stringify([
      claims.uid,
      claims.accessLevel,
      claims.domainId,
      claims.rootDomainId,
      watch.kind,
      watch.kind === 'document' ? watch.path : watch.query,
    ]);
    let result = this.#results.get(key);
    if (result === undefined) {
      result = new LiveResult(
        key,
        claims,
        watch,
        this.#store,
        this.#turns,
        () => this.#inMemory,
        this.stats,
        (failed, error) => this.#failed(failed, error),
      );
      this.#results.set(key, result);
    }
    const joined = result;
    joined.join(member);
    return () => {
      joined.members.delete(member);
      if (joined.members.size === 0 && this.#results.get(key) === joined) this.#results.delete(key);
    };
  }

  #changed(batch: ChangeBatch): void {
    if ('everything' in batch) {
      for (const result of this.#results.values()) result.refresh();
      return;
    }
    const taking: { result: LiveResult; changes: DocumentChange[]; generation: number }[] = [];
    const paths = new Set<string>();
    for (const result of this.#results.values()) {
      const changes = batch.changes.filter((change) => result.concerns(change));
      if (changes.length === 0) continue;
      if (!result.takesRows(changes)) {
        result.refresh();
        continue;
      }
      taking.push({ result, changes, generation: result.generation });
      for (const change of changes) paths.add(change.path);
    }
    if (taking.length === 0) return;
    if (paths.size > MAX_CHANGED_ROWS) {
      for (const { result } of taking) result.refresh();
      return;
    }
    this.#reading = this.#reading.then(async () => {
      try {
        const rows = await this.#store.rowsAt([...paths]);
        const changed = new ChangedRows(new Map(rows.map((row) => [row.path, row])), this.#store);
        for (const { result, changes, generation } of taking) {
          try {
            result.take(changes, changed, generation);
          } catch (error) {
            this.#failed(result, error);
          }
        }
      } catch (error) {
        this.#log.warn({ err: error }, 'live: could not read the changed records; the results concerned read again');
        for (const { result } of taking) result.refresh();
      }
    });
  }

  /** Spec (PRODUCT.md section 6): a subscription that fails is logged as a warning and dropped. */
  #failed(result: LiveResult, error: unknown): void {
    if (this.#results.get(result.key) === result) this.#results.delete(result.key);
    const failure = error instanceof DocumentError ? error : new DocumentError('aborted', 'The subscription failed; subscribe again');
    const watch = result.watch;
    this.#log.warn(
      {
        uid: result.claims.uid,
        target: watch.kind === 'document' ? watch.path : watch.query,
        code: failure.code,
        ...(error instanceof DocumentError ? {} : { err: error }),
      },
      `live subscription dropped: ${failure.message}`,
    );
    const members = [...result.members];
    result.members.clear();
    for (const member of members) member.fail(failure);
  }

  close(): void {
    this.#unsubscribe();
    this.#results.clear();
  }
}
