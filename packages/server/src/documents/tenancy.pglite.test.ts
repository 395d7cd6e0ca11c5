/** The tenancy matrix (tenancyMatrix.fixture.ts) on PGlite in memory. */
import { describe } from 'vitest';
import { tenancyHolds } from './tenancyMatrix.fixture.ts';

describe('tenancy on PGlite in memory', () => {
  tenancyHolds('pglite');
});
