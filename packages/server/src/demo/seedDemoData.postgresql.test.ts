/** The demo data set on PostgreSQL (demoDataChecks.ts). */
import { describePostgres } from '../testing/postgres.ts';
import { demoDataHolds } from './demoDataChecks.ts';

describePostgres('demo data set on PostgreSQL', () => {
  demoDataHolds('postgresql');
});
