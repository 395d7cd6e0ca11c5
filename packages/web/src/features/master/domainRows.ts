/**
 * The domain list (/master/domain-lists): every domain with its parent, root and agency by name,
 * searched and filtered as the toolbar says, and shown a page at a time. How many rooms a domain
 * has is the server's count (DomainList), never a count of a capped list of rooms.
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

export function buildDomainRows(domains: readonly DomainInput[]): DomainRow[] {
  const names = new Map(domains.map((domain) => [domain.documentReferenceId, domain.name]));
  return domains
    .map((domain) => {
      const row = {
        id: domain.documentReferenceId,
        name: domain.name,
        kind: domain.kind,
        parentName: nameOf(names, domain.parentDomainId),
        rootName: nameOf(names, domain.rootDomainId),
        agencyName: nameOf(names, domain.agencyDomainId),
        status: domain.status ?? 'active',
      };
      const searchText = [row.id, row.name, domain.nameKana ?? '', row.parentName ?? '', row.rootName ?? '', row.agencyName ?? ''].join(' ').toLowerCase();
      return { ...row, searchText };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'ja'));
}

/** The rows of page `page` (from 1) of `pageSize`, and how many pages there are (at least 1). */
export function pageOfRows<R>(rows: readonly R[], page: number, pageSize: number): { rows: R[]; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const shown = Math.min(Math.max(1, page), pages);
  return { rows: rows.slice((shown - 1) * pageSize, shown * pageSize), pages };
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
