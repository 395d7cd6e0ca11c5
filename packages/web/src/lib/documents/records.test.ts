/** The record types come from SCHEMAS: it must name every collection of the registry, with its schema. */
import { COLLECTIONS, SCHEMAS } from '@nemuri/shared/documents/collections';
import { describe, expect, it } from 'vitest';

describe('record types', () => {
  it('have a schema for every collection of the registry, the registry’s own', () => {
    expect(Object.keys(SCHEMAS).sort()).toEqual(COLLECTIONS.map((spec) => spec.name).sort());
    for (const spec of COLLECTIONS) expect(SCHEMAS[spec.name as keyof typeof SCHEMAS]).toBe(spec.schema);
  });
});
