import type { ImportErrorCode } from '@nemuri/shared/imports';

/** A file that cannot be imported, with the reason the upload history shows. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;

  constructor(code: ImportErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
