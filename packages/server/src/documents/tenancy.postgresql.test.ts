/** The tenancy matrix (tenancyMatrix.ts) on PostgreSQL. */
import { describePostgres } from '../testing/postgres.ts';
import { tenancyHolds } from './tenancyMatrix.ts';

describePostgres('tenancy on PostgreSQL', () => {
  tenancyHolds('postgresql');
});
