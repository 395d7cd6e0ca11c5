/**
 * The rules between records that the registry declares (`CollectionSpec.rules`,
 * packages/shared/src/documents/collections.ts), kept by the document engine (store.ts) on every
 * write of every caller, inside the write's transaction — so the web screens, the documents API,
 * integrations and the server's own services all get them, and none has to repeat them:
 * - `fixedFields`: below a level, fields keep the value they were first written with (a domain's
 *   place in the tree);
 * - `keepsOwner`: a root domain keeps an owner (PRODUCT.md section 1);
 * - `pairedRecord`: a field naming another record that names this one back (a room's device and
 *   the device's room) — when it changes, the other side follows;
 * - `acknowledgement`: who acknowledged and when are the caller's uid and the server's time, set
 *   once (an alert's `acknowledgedBy`/`acknowledgedAt`).
 */
import type { Claims } from '@nemuri/shared/documents/access';
import type { CollectionSpec } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import type { Queryable } from '../database/database.ts';

/** One write as the rules see it. */
export interface RuleWrite {
  tx: Queryable;
  spec: CollectionSpec;
  /** The record's path (`rooms/r1`), its collection's path (`rooms`) and its id (`r1`). */
  path: string;
  collectionPath: string;
  id: string;
  /** The stored record before the write (null: created), with its root domain. */
  before: { data: Data; rootDomainId: string | null; domainId: string | null } | null;
  /** Its data after the write (null: deleted). */
  after: Data | null;
}

/** What a rule may do besides reading: write another record as the engine, in the same transaction. */
export interface RuleActions {
  /**
   * Applies `fields` (an update) to the record at `path` when it exists and `when` holds for its
   * data. Written as the engine itself: the caller's write that causes it has passed the caller's
   * checks (level, scope, and the reference to that record, which must be the caller's to name).
   */
  follow(tx: Queryable, path: string, fields: Data, when: (data: Data) => boolean): Promise<void>;
}

/** Whether the write changes a field that is fixed for this caller (the engine then refuses it as denied). */
export function changesFixedField(spec: CollectionSpec, claims: Claims, before: Data | null, after: Data | null): boolean {
  if (before === null || after === null) return false;
  return (spec.rules ?? []).some(
    (rule) =>
      rule.kind === 'fixedFields' &&
      claims.accessLevel < rule.editableFrom &&
      rule.fields.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field])),
  );
}

function filled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * The record as it is to be stored once the `acknowledgement` rules have set who and when: the
 * caller's uid and `now` (the server's time) when the write acknowledges, the recorded ones after.
 * Throws the refusal of a write naming someone else, of a caller who is not the tenant's staff, and
 * of a write changing or clearing a recorded acknowledgement. Not for the server's own identities.
 */
export function recordAcknowledgements(spec: CollectionSpec, claims: Claims, before: Data | null, after: Data, now: string): Data {
  let data = after;
  for (const rule of spec.rules ?? []) {
    if (rule.kind !== 'acknowledgement') continue;
    const { byField, atField } = rule;
    if (before !== null && (filled(before[byField]) || filled(before[atField]))) {
      if (data[byField] !== before[byField]) throw new DocumentError('failed-precondition', MESSAGES.acknowledged(byField));
      data = { ...data, [atField]: before[atField] };
      continue;
    }
    if (!filled(data[byField]) && !filled(data[atField])) continue;
    if (claims.accessLevel < rule.staffFrom || claims.accessLevel >= rule.staffBelow) throw new DocumentError('permission-denied', MESSAGES.outOfScope);
    if (filled(data[byField]) && data[byField] !== claims.uid) throw new DocumentError('invalid-argument', MESSAGES.acknowledgerIsCaller(byField));
    data = { ...data, [byField]: claims.uid, [atField]: now };
  }
  return data;
}

/** Checks that need the database, before the write is stored; throws the refusal. */
export async function checkRules(write: RuleWrite): Promise<void> {
  for (const rule of write.spec.rules ?? []) {
    if (rule.kind === 'keepsOwner') await keepAnOwner(write, rule.level);
  }
}

/** Writes that follow from the write, after it is stored. */
export async function followRules(write: RuleWrite, actions: RuleActions): Promise<void> {
  for (const rule of write.spec.rules ?? []) {
    if (rule.kind !== 'pairedRecord') continue;
    const was = named(write.before?.data[rule.field]);
    const now = named(write.after?.[rule.field]);
    if (was === now) continue;
    // The previous record is released only while it still names this one (a stale pair is left alone).
    if (was !== null) await actions.follow(write.tx, `${rule.collection}/${was}`, { [rule.backField]: null }, (data) => data[rule.backField] === write.id);
    if (now !== null) await actions.follow(write.tx, `${rule.collection}/${now}`, { [rule.backField]: write.id }, (data) => data[rule.backField] !== write.id);
  }
}

function named(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && !value.includes('/') ? value : null;
}

/**
 * A root domain always keeps at least one owner (PRODUCT.md section 1): a staff write that
 * demotes, disables or deletes the last owner is refused. An owner is a signed-up account
 * (a user whose id is the staff record's) at `level` or above, not disabled, anywhere in the
 * root domain: a staff record without an account is a name, not someone who can act as owner.
 */
async function keepAnOwner({ tx, path, collectionPath, before, after }: RuleWrite, level: number): Promise<void> {
  if (before === null) return;
  const isOwner = (data: Data | null) => data !== null && typeof data.accessLevel === 'number' && data.accessLevel >= level && data.disabled !== true;
  if (!isOwner(before.data) || isOwner(after)) return;
  const root = before.rootDomainId ?? before.domainId;
  // Two demotions at once must not both see the other owner still there.
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`owners:${root ?? collectionPath}`]);
  const { rows: tables } = await tx.query<{ present: boolean }>(`select to_regclass('"user"') is not null as present`);
  if (tables[0]?.present !== true) throw new DocumentError('failed-precondition', MESSAGES.lastOwner);
  const { rows } = await tx.query<{ n: number }>(
    `select count(*)::int as n from documents staff
      where staff.collection_group = 'staff' and staff.root_domain_id = $1 and staff.path <> $2
        and (staff.data ->> 'accessLevel')::int >= $3 and coalesce((staff.data ->> 'disabled')::boolean, false) = false
        and exists (select 1 from "user" account where account.id = staff.id)`,
    [root, path, level],
  );
  if ((rows[0]?.n ?? 0) === 0) throw new DocumentError('failed-precondition', MESSAGES.lastOwner);
}
