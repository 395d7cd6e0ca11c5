/**
 * The document engine's error codes and messages (PRODUCT.md section 6, the specification's
 * section 8): the API answers `{ code, message }` with one of these codes and the English message.
 */
export type DocumentErrorCode =
  'invalid-argument' | 'failed-precondition' | 'not-found' | 'permission-denied' | 'unauthenticated' | 'aborted' | 'unimplemented';

export const HTTP_STATUS_OF_CODE: Record<DocumentErrorCode, number> = {
  'invalid-argument': 400,
  'failed-precondition': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  aborted: 409,
  unimplemented: 501,
};

/** One schema problem: where (field path) and the zod message. */
export interface DocumentIssue {
  path: (string | number)[];
  message: string;
}

export class DocumentError extends Error {
  constructor(
    readonly code: DocumentErrorCode,
    message: string,
    readonly issues: DocumentIssue[] = [],
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}

export const MESSAGES = {
  maxAttempts: 'Max attempts must be at least 1',
  latitude: 'Latitude must be between -90 and 90',
  longitude: 'Longitude must be between -180 and 180',
  base64: 'Failed to construct data from Base64 string',
  invalidData: (fn: string) => `Function ${fn}() called with invalid data`,
  moreThanOneNotEqual: "Invalid query. You cannot use more than one '!=' filter.",
  moreThanOneNotIn: "Invalid query. You cannot use more than one 'not-in' filter.",
  notInWithNotEqual: "Invalid query. You cannot use 'not-in' filters with '!=' filters.",
  emptyIn: (op: string) => `Invalid Query. A non-empty array is required for '${op}' filters.`,
  limitToLastNeedsOrder: 'limitToLast() queries require specifying at least one orderBy() clause',
  emptyFieldPath: (path: string) => `Invalid field path (${path}). Paths must not be empty, begin with '.', end with '.', or contain '..'`,
  badFieldPath: (path: string) => `Invalid field path (${path}). Paths must not contain '~', '*', '/', '[', or ']'`,
  unknownCollection: (path: string) => `Unknown collection: ${path}`,
  badDocumentPath: (path: string) => `Invalid document path: ${path}`,
  badCollectionPath: (path: string) => `Invalid collection path: ${path}`,
  notFound: (path: string) => `No document to update: ${path}`,
  signedOut: 'Sign in to use the data',
  outOfScope: 'Missing or insufficient permissions.',
  notUnique: (field: string) => `Another document already has this ${field}`,
  lastOwner: 'A domain must keep at least one owner',
  acknowledged: (field: string) => `Already acknowledged: ${field} and its time cannot be changed or cleared`,
  acknowledgerIsCaller: (field: string) => `${field} must be your own user id: the server records who acknowledges and when`,
  badReference: (field: string, path: string) => `${field} must name a record you may use: there is no ${path}`,
  tooManyWrites: (max: number) => `A transaction may write at most ${max} documents`,
  tooManyReads: (max: number) => `A transaction may read at most ${max} documents`,
  versionMismatch: (path: string) => `The document changed since it was read: ${path}`,
  unimplemented: (what: string) => `Not implemented: ${what}`,
} as const;
