/**
 * A domain's change history (/master/domain/:domainid/history): the audit log names records by
 * path only, so a change belongs to the domain when its path is the domain's own record or lies
 * under it, or is one of the domain's rooms or devices (or their children).
 */
export interface DomainRecords {
  domainId: string;
  roomIds: readonly string[];
  deviceSerials: readonly string[];
}

export interface AuditEntry {
  who: string;
  when: string;
  path: string;
  operation: 'create' | 'set' | 'update' | 'delete';
  changedKeys: readonly string[];
}

/** The document paths whose records (and children) are the domain's. */
export function domainRecordRoots(records: DomainRecords): string[] {
  return [`domains/${records.domainId}`, ...records.roomIds.map((id) => `rooms/${id}`), ...records.deviceSerials.map((serial) => `devices/${serial}`)];
}

/** Whether the path is one of the roots or under one (`rooms/r1/sleeps/…`, not `rooms/r10`). */
export function isPathOfDomain(path: string, roots: ReadonlySet<string> | readonly string[]): boolean {
  const set = roots instanceof Set ? roots : new Set(roots);
  const parts = path.split('/');
  // Document paths have an even number of segments; every even-length prefix is a document above it.
  for (let length = 2; length <= parts.length; length += 2) {
    if (set.has(parts.slice(0, length).join('/'))) return true;
  }
  return false;
}

/** The domain's changes, newest first. */
export function domainAudits<T extends AuditEntry>(entries: readonly T[], records: DomainRecords): T[] {
  const roots = new Set(domainRecordRoots(records));
  return entries.filter((entry) => isPathOfDomain(entry.path, roots)).sort((a, b) => (a.when < b.when ? 1 : a.when > b.when ? -1 : 0));
}
