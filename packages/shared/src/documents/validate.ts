/**
 * Schema checks of records: writes must match the collection's strict schema; reads that do not
 * come back as id and path only.
 */
import type { CollectionSpec } from './collections.ts';
import { DocumentError, type DocumentIssue } from './errors.ts';
import type { Data } from './update.ts';

export function issuesOf(spec: CollectionSpec, data: Data): DocumentIssue[] {
  const result = spec.schema.safeParse(data);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

/** Throws invalid-argument with the first zod message (all of them in `issues`). */
export function assertValid(spec: CollectionSpec, data: Data): void {
  const issues = issuesOf(spec, data);
  const first = issues[0];
  if (first !== undefined) throw new DocumentError('invalid-argument', first.message, issues);
}

/** What a read returns: the record with its common fields, or only id and path when it fails its schema. */
export function readRecord(spec: CollectionSpec, id: string, path: string, data: Data, createdAt: string, updatedAt: string): Data {
  if (issuesOf(spec, data).length > 0) return { documentReferenceId: id, documentPath: path };
  return { ...data, documentReferenceId: id, documentPath: path, createdAt, updatedAt };
}
