/**
 * What a staff record means for the member's account. The staff record (`domains/{d}/staff/{uid}`)
 * is what administrators edit through the document engine, under its level guard and scope; the
 * level a member acts with is the `accessLevel` column of their sign-in account. This module
 * keeps the second in step with the first, and carries out the one change that only the sign-in
 * side can make: removing a member's second factor.
 *
 * An account follows a staff record only while the account belongs to that record's domain
 * (`user.domainId`): a staff record under another uid cannot reach someone else's account.
 */
import { randomUUID } from 'node:crypto';
import type { Claims } from '@nemuri/shared/documents/access';
import type { Database, Queryable } from '../database/database.ts';
import type { ChangeBatch } from '../documents/changeFeed.ts';

export interface StaffAccountLogger {
  error(details: object, message: string): void;
}

const STAFF_PATH = /^domains\/([^/]+)\/staff\/([^/]+)$/;

/** The domain and uid of a staff record's path, or null for any other path. */
export function staffPathOf(path: string): { domainId: string; uid: string } | null {
  const match = STAFF_PATH.exec(path);
  return match === null ? null : { domainId: match[1] ?? '', uid: match[2] ?? '' };
}

/**
 * Applies a staff record's level and `disabled` to the member's account: the level becomes the
 * account's, and disabling ends every session the member has (each request reads the session, so
 * the member is signed out at once).
 */
export async function applyStaffRecord(database: Database, domainId: string, uid: string): Promise<void> {
  await database.transaction(async (tx) => {
    const { rows } = await tx.query<{ data: { accessLevel?: unknown; disabled?: unknown } }>('select data from documents where path = $1', [
      `domains/${domainId}/staff/${uid}`,
    ]);
    const data = rows[0]?.data;
    if (data === undefined) return;
    if (typeof data.accessLevel === 'number') {
      await tx.query('update "user" set "accessLevel" = $1, "updatedAt" = now() where id = $2 and "domainId" = $3 and "accessLevel" <> $1', [
        data.accessLevel,
        uid,
        domainId,
      ]);
    }
    if (data.disabled === true) {
      await tx.query('delete from "session" where "userId" = (select id from "user" where id = $1 and "domainId" = $2)', [uid, domainId]);
    }
  });
}

/**
 * A change-feed listener that applies every written staff record to its account, then calls
 * `applied` with the member's uid (their live sockets are checked again at once).
 */
export function staffRecordFollower(
  database: Database,
  log: StaffAccountLogger,
  applied: (uid: string) => void = () => undefined,
): (batch: ChangeBatch) => void {
  return (batch) => {
    if (!('changes' in batch)) return;
    for (const change of batch.changes) {
      if (change.collectionGroup !== 'staff' || change.op === 'delete') continue;
      const staff = staffPathOf(change.path);
      if (staff === null) continue;
      applyStaffRecord(database, staff.domainId, staff.uid)
        .then(() => applied(staff.uid))
        .catch((error: unknown) => log.error({ err: error, path: change.path }, 'staff record could not be applied to its account'));
    }
  };
}

/** The tenant columns of the domain, for the audit record. */
async function tenantOf(tx: Queryable, domainId: string): Promise<{ domainId: string; rootDomainId: string | null }> {
  const { rows } = await tx.query<{ root_domain_id: string | null }>('select root_domain_id from documents where path = $1', [`domains/${domainId}`]);
  return { domainId, rootDomainId: rows[0]?.root_domain_id ?? domainId };
}

/**
 * Removes the member's TOTP and backup codes and ends their sessions, so that they enrol again at
 * their next sign-in (when their domain requires it, their level stays 0 until they do). Written
 * to the audit log like an engine write, naming the administrator. Returns false when the
 * account does not belong to the domain.
 */
export async function resetSecondFactor(database: Database, by: Claims, domainId: string, uid: string): Promise<boolean> {
  return database.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'update "user" set "twoFactorEnabled" = false, "secondFactorEnrolledAt" = null, "updatedAt" = now() where id = $1 and "domainId" = $2 returning id',
      [uid, domainId],
    );
    if (rows.length === 0) return false;
    await tx.query('delete from "twoFactor" where "userId" = $1', [uid]);
    await tx.query('delete from "session" where "userId" = $1', [uid]);
    const tenant = await tenantOf(tx, domainId);
    const id = randomUUID();
    const audit = { who: by.uid, when: new Date().toISOString(), path: `domains/${domainId}/staff/${uid}`, operation: 'update', changedKeys: ['secondFactor'] };
    await tx.query(
      `insert into documents (path, collection, collection_group, parent_path, id, data, domain_id, root_domain_id, room_id, created_at, updated_at)
       values ($1, 'auditLogs', 'auditLogs', '', $2, $3::jsonb, $4, $5, null, now(), now())`,
      [`auditLogs/${id}`, id, JSON.stringify(audit), tenant.domainId, tenant.rootDomainId],
    );
    return true;
  });
}

/** Whether the user's staff record in their own domain is disabled: they may not sign in. */
export async function isStaffDisabled(database: Queryable, uid: string): Promise<boolean> {
  const { rows } = await database.query<{ disabled: boolean }>(
    `select (d.data ->> 'disabled') = 'true' as disabled
       from "user" u join documents d on d.path = 'domains/' || u."domainId" || '/staff/' || u.id
      where u.id = $1`,
    [uid],
  );
  return rows[0]?.disabled === true;
}
