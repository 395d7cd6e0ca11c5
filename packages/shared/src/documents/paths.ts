/**
 * Document and collection paths: `rooms/r1` is a document of collection `rooms`;
 * `rooms/r1/sleeps` a collection under it. Segments are non-empty and hold no '/'.
 */
import { collectionByName, type CollectionSpec } from './collections.ts';
import { DocumentError, MESSAGES } from './errors.ts';
import { FORBIDDEN_KEYS, isBadText } from './safeData.ts';

export interface CollectionRef {
  spec: CollectionSpec;
  /** e.g. `rooms/r1/sleeps`. */
  path: string;
  /** The parent document's path, '' at the top. */
  parentPath: string;
}

export interface DocumentRef extends CollectionRef {
  id: string;
  /** e.g. `rooms/r1/sleeps/2026-01-02`. */
  documentPath: string;
}

const SEGMENT = /^[^/]+$/;

/** Ids end up as object keys and in jsonb: the same rules as field names (safeData.ts). */
function badSegment(segment: string): boolean {
  return FORBIDDEN_KEYS.has(segment) || isBadText(segment);
}

function registryName(segments: readonly string[]): string {
  return segments.filter((_, index) => index % 2 === 0).join('/');
}

export function parseCollectionPath(path: string): CollectionRef {
  if (typeof path !== 'string') throw new DocumentError('invalid-argument', MESSAGES.badCollectionPath(String(path)));
  const segments = path.split('/');
  if (segments.length % 2 !== 1 || !segments.every((segment) => SEGMENT.test(segment) && !badSegment(segment)))
    throw new DocumentError('invalid-argument', MESSAGES.badCollectionPath(path));
  const spec = collectionByName(registryName(segments));
  if (spec === undefined) throw new DocumentError('invalid-argument', MESSAGES.unknownCollection(path));
  return { spec, path, parentPath: segments.slice(0, -1).join('/') };
}

/**
 * A document path. The last segment may be empty (`rooms/`) only when `allowEmptyId`: the
 * update-with-empty-id case, which the server refuses quietly.
 */
export function parseDocumentPath(path: string, { allowEmptyId = false } = {}): DocumentRef {
  if (typeof path !== 'string') throw new DocumentError('invalid-argument', MESSAGES.badDocumentPath(String(path)));
  const segments = path.split('/');
  const id = segments[segments.length - 1] ?? '';
  const head = segments.slice(0, -1);
  if (segments.length % 2 !== 0 || !head.every((segment) => SEGMENT.test(segment)) || (id === '' && !allowEmptyId) || id.includes('/') || badSegment(id)) {
    throw new DocumentError('invalid-argument', MESSAGES.badDocumentPath(path));
  }
  const collection = parseCollectionPath(head.join('/'));
  if (id !== '' && collection.spec.idPattern !== undefined && !collection.spec.idPattern.test(id))
    throw new DocumentError('invalid-argument', MESSAGES.badDocumentPath(path));
  return { ...collection, id, documentPath: path };
}
