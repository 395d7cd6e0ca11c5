/**
 * A refused lend or return: the API's status and code, plus a `reason` the web app turns into a
 * Japanese message (locale namespace `deviceBorrow.errors`), since one code covers several cases
 * (409 is both "already lent" and "already returned").
 */
import { ApiError, type ErrorCode } from '../http/errors.ts';

export type LendingReason =
  | 'invalid-argument'
  | 'invalid-period'
  | 'not-owner'
  | 'permission-denied'
  | 'device-not-found'
  | 'domain-not-found'
  | 'borrow-not-found'
  | 'device-retired'
  | 'device-in-repair'
  | 'already-lent'
  | 'already-returned'
  | 'conflict';

export class LendingError extends ApiError {
  constructor(
    statusCode: number,
    code: ErrorCode,
    override readonly reason: LendingReason,
    message: string,
  ) {
    super(statusCode, code, message);
    this.name = 'LendingError';
  }
}
