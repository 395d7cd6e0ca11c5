/** The tenancy matrix (tenancyMatrix.ts) on PGlite in memory. */
import { describe } from 'vitest';
import { tenancyHolds } from './tenancyMatrix.ts';

describe('tenancy on PGlite in memory', () => {
  tenancyHolds('pglite');
});
