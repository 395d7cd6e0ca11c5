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
 * Evaluations take turns, a few at a time (`EVALUATION_SLOTS`): a write seen by a thousand results
 * then leaves the database's connections free for requests in between, instead of queueing a
 * thousand reads in front of them.
 */
import { inScope, type Claims, type DataScope } from '@nemuri/shared/documents/access';
import { collectionByGroup, type CollectionSpec } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import type { Snapshot } from '@nemuri/shared/documents/live';
import { parseCollectionPath, parseDocumentPath } from '@nemuri/shared/documents/paths';
import { validateQuery } from '@nemuri/shared/documents/query';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { ChangeBatch, ChangeFeed, DocumentChange } from '../documents/changeFeed.ts';
import type { DocumentStore } from '../documents/store.ts';

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
type Watch = { kind: 'document'; path: string } | { kind: 'query' | 'count'; spec: CollectionSpec; collection: string; group: boolean; query: unknown };

/** Checks a subscription's target; throws invalid-argument like the HTTP API does. */
export function parseTarget(target: unknown): Watch {
  if (isPlainObject(target)) {
    if (typeof target.document === 'string') return { kind: 'document', path: parseDocumentPath(target.document).documentPath };
    const kind = 'query' in target ? 'query' : 'count' in target ? 'count' : null;
    if (kind !== null) {
      const query = target[kind];
      const valid = validateQuery(query);
      if (valid.collectionGroup) {
        const spec = collectionByGroup(valid.collection);
        if (spec === undefined) throw new DocumentError('invalid-argument', MESSAGES.unknownCollection(valid.collection));
        return { kind, spec, collection: valid.collection, group: true, query };
      }
      const ref = parseCollectionPath(valid.collection);
      return { kind, spec: ref.spec, collection: ref.path, group: false, query };
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

class LiveResult {
  readonly members = new Set<LiveMember>();
  /** The JSON each member last got. */
  readonly #sent = new WeakMap<LiveMember, string>();
  #latest: string | null = null;
  #scope: DataScope | null = null;
  #running = false;
  #again = false;

  constructor(
    readonly key: string,
    readonly claims: Claims,
    readonly watch: Watch,
    readonly store: DocumentStore,
    readonly turns: Turns,
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
        const json = await this.turns.run(async () => {
          this.#scope = await this.store.scopeOf(this.claims, undefined, this.watch.kind === 'document' ? undefined : this.watch.spec);
          return JSON.stringify(await this.#evaluate());
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

  async #evaluate(): Promise<Snapshot> {
    const watch = this.watch;
    switch (watch.kind) {
      case 'document':
        return { document: (await this.store.get(this.claims, watch.path))?.document ?? null };
      case 'query':
        return { documents: await this.store.query(this.claims, watch.query) };
      case 'count':
        return { count: await this.store.count(this.claims, watch.query) };
    }
  }
}

export class LiveResults {
  readonly #results = new Map<string, LiveResult>();
  readonly #turns = new Turns(EVALUATION_SLOTS);
  readonly #store: DocumentStore;
  readonly #log: Logger;
  readonly #unsubscribe: () => void;

  constructor(store: DocumentStore, feed: ChangeFeed, log: Logger) {
    this.#store = store;
    this.#log = log;
    this.#unsubscribe = feed.subscribe((batch) => this.#changed(batch));
  }

  /** How many distinct results are live (for tests and measurements). */
  get size(): number {
    return this.#results.size;
  }

  /**
   * Subscribes the member to the target with these claims: it gets a first snapshot soon, then one
   * per change of the result. Throws invalid-argument for a malformed target. Returns the
   * unsubscribe function.
   */
  add(claims: Claims, target: unknown, member: LiveMember): () => void {
    const watch = parseTarget(target);
    const key = JSON.stringify([claims.uid, claims.accessLevel, claims.domainId, claims.rootDomainId, watch.kind, watch.kind === 'document' ? watch.path : watch.query]);
    let result = this.#results.get(key);
    if (result === undefined) {
      result = new LiveResult(key, claims, watch, this.#store, this.#turns, (failed, error) => this.#failed(failed, error));
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
    for (const result of this.#results.values()) {
      if ('everything' in batch || batch.changes.some((change) => result.concerns(change))) result.refresh();
    }
  }

  /** Spec (PRODUCT.md section 6): a subscription that fails is logged as a warning and dropped. */
  #failed(result: LiveResult, error: unknown): void {
    if (this.#results.get(result.key) === result) this.#results.delete(result.key);
    const failure = error instanceof DocumentError ? error : new DocumentError('aborted', 'The subscription failed; subscribe again');
    const watch = result.watch;
    this.#log.warn(
      { uid: result.claims.uid, target: watch.kind === 'document' ? watch.path : watch.query, code: failure.code, ...(error instanceof DocumentError ? {} : { err: error }) },
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
