/**
 * A refused write, worded for the form: the engine answers in English with a code (and, for a
 * schema problem, the fields at fault); the master screens say it in Japanese next to the form.
 */
import { DocumentError } from '@nemuri/shared/documents/errors';

export interface Refusal {
  /** Under `master.refusals`. */
  messageKey: 'permission' | 'notUnique' | 'invalid' | 'exists' | 'notFound' | 'conflict' | 'network';
  /** The fields the server named (schema issues, or the unique field). */
  fields: string[];
}

/** Thrown by a create whose id is taken, so that it does not replace another record. */
export class RecordExists extends Error {
  constructor(readonly path: string) {
    super(`${path} exists`);
    this.name = 'RecordExists';
  }
}

export function refusalOf(error: unknown): Refusal {
  if (error instanceof RecordExists) return { messageKey: 'exists', fields: [] };
  if (!(error instanceof DocumentError)) return { messageKey: 'network', fields: [] };
  const fields = [...new Set(error.issues.map((issue) => issue.path[0]).filter((head): head is string => typeof head === 'string'))];
  switch (error.code) {
    case 'permission-denied':
    case 'unauthenticated':
      return { messageKey: 'permission', fields: [] };
    case 'not-found':
      return { messageKey: 'notFound', fields: [] };
    case 'aborted':
      return { messageKey: 'conflict', fields: [] };
    default: {
      const unique = /already has this (\w+)/.exec(error.message)?.[1];
      if (unique !== undefined) return { messageKey: 'notUnique', fields: [unique] };
      return { messageKey: 'invalid', fields };
    }
  }
}
