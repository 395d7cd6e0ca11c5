/** Attacks on the document engine (documentEngine.ts) on PGlite in memory. */
import { describe } from 'vitest';
import { documentEngineHolds } from './documentEngine.ts';

describe('document engine under attack, on PGlite', () => {
  documentEngineHolds('pglite');
});
