/** Attacks on the document engine (documentEngine.ts) on PostgreSQL. */
import { describePostgres } from '../testing/postgres.ts';
import { documentEngineHolds } from './documentEngine.ts';

describePostgres('document engine under attack, on PostgreSQL', () => {
  documentEngineHolds('postgresql');
});
