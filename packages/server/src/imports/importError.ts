import type { ImportErrorCode, ReadColumn } from '@nemuri/shared/imports';

/** A file that cannot be imported, with the reason the upload history shows (and, when known, what each column held). */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;
  readonly columns: ReadColumn[] | undefined;

  constructor(code: ImportErrorCode, message: string, columns?: ReadColumn[]) {
    super(message);
    this.code = code;
    this.columns = columns;
  }
}
