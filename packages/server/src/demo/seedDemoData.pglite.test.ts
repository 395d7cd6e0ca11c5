/** The demo data set on PGlite in memory (demoDataChecks.ts). */
import { describe } from 'vitest';
import { demoDataHolds } from './demoDataChecks.ts';

describe('demo data set on PGlite in memory', () => {
  demoDataHolds('pglite');
});
