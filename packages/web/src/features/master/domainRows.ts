/**
 * The domain list (/master/domain-lists): every domain with its parent, root and agency by name,
 * how many rooms it has, searched and filtered as the toolbar says.
 */
import type { DomainKind } from './api/masterCounts.ts';

export interface DomainInput {
  documentReferenceId: string;
  name: string;
  nameKana?: string | null;
  kind: DomainKind;
  parentDomainId?: string | null;
  rootDomainId?: string | null;
  agencyDomainId?: string | null;
  status?: 'active' | 'suspended' | 'closed';
}

export interface DomainRow {
  id: string;
  name: string;
  kind: DomainKind;
  parentName: string | null;
  rootName: string | null;
  agencyName: string | null;
  roomCount: number;
  /** Absent status reads as active. */
  status: 'active' | 'suspended' | 'closed';
  /** Lower-cased text the search looks in. */
  searchText: string;
}

export interface DomainFilter {
  search: string;
  kind: DomainKind | null;
  status: DomainRow['status'] | null;
}

/** A domain named by id: its name, or the id itself when it is not among the domains (deleted). */
function nameOf(names: ReadonlyMap<string, string>, id: string | null | undefined): string | null {
  if (typeof id !== 'string' || id === '') return null;
  return names.get(id) ?? id;
}

export function buildDomainRows(domains: readonly DomainInput[], rooms: readonly { domainId: string }[]): DomainRow[] {
  const names = new Map(domains.map((domain) => [domain.documentReferenceId, domain.name]));
  const roomCounts = new Map<string, number>();
  for (const room of rooms) roomCounts.set(room.domainId, (roomCounts.get(room.domainId) ?? 0) + 1);
  return domains
    .map((domain) => {
      const row = {
        id: domain.documentReferenceId,
        name: domain.name,
        kind: domain.kind,
        parentName: nameOf(names, domain.parentDomainId),
        rootName: nameOf(names, domain.rootDomainId),
        agencyName: nameOf(names, domain.agencyDomainId),
        roomCount: roomCounts.get(domain.documentReferenceId) ?? 0,
        status: domain.status ?? 'active',
      };
      const searchText = [row.id, row.name, domain.nameKana ?? '', row.parentName ?? '', row.rootName ?? '', row.agencyName ?? ''].join(' ').toLowerCase();
      return { ...row, searchText };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'ja'));
}

export function filterDomainRows(rows: readonly DomainRow[], filter: DomainFilter): DomainRow[] {
  const words = filter.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter(
    (row) =>
      (filter.kind === null || row.kind === filter.kind) &&
      (filter.status === null || row.status === filter.status) &&
      words.every((word) => row.searchText.includes(word)),
  );
}
