/**
 * A refused agency request: the API's status and code, plus a `reason` the web app turns into a
 * Japanese message (locale namespace `agency.errors`), since one code covers several cases
 * (409 is both "bill already issued" and "registration number missing").
 */
import { ApiError, type ErrorCode } from '../http/errors.ts';

export type AgencyReason =
  | 'invalid-argument'
  | 'permission-denied'
  | 'agency-not-found'
  | 'partner-not-found'
  | 'domain-not-found'
  | 'domain-not-eligible'
  | 'already-partner'
  | 'recently-declined'
  | 'request-not-found'
  | 'request-not-pending'
  | 'bill-not-found'
  | 'bill-frozen'
  | 'bill-not-issued'
  | 'bill-already-paid'
  | 'registration-number-missing'
  | 'future-month'
  | 'month-not-over'
  | 'conflict';

export class AgencyError extends ApiError {
  constructor(
    statusCode: number,
    code: ErrorCode,
    override readonly reason: AgencyReason,
    message: string,
  ) {
    super(statusCode, code, message);
    this.name = 'AgencyError';
  }
}
