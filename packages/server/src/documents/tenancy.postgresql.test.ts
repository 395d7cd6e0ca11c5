/** The tenancy matrix (tenancyMatrix.fixture.ts) on PostgreSQL. */
import { describePostgres } from '../testing/postgres.ts';
import { tenancyHolds } from './tenancyMatrix.fixture.ts';

describePostgres('tenancy on PostgreSQL', () => {
  tenancyHolds('postgresql');
});
