/**
 * The HL7 FHIR R4 Bundle of a room's nightly Observations that GET /api/fhir/rooms/:roomId/Observation
 * answers (server integrations/fhir.ts builds it): the answer's schema, for the route and the OpenAPI
 * document alike. Only the elements the export writes are listed (FHIR R4 Observation, Bundle).
 */
import { z } from 'zod/v3';

export const fhirCodingSchema = z.object({ system: z.string(), code: z.string(), display: z.string() }).strict();
export type FhirCoding = z.infer<typeof fhirCodingSchema>;

export const fhirQuantitySchema = z.object({ value: z.number(), unit: z.string(), system: z.string(), code: z.string() }).strict();
export type FhirQuantity = z.infer<typeof fhirQuantitySchema>;

const codeableConcept = z.object({ coding: z.array(fhirCodingSchema), text: z.string() }).strict();

export const fhirObservationSchema = z
  .object({
    resourceType: z.literal('Observation'),
    id: z.string(),
    status: z.literal('final'),
    category: z.array(z.object({ coding: z.array(fhirCodingSchema) }).strict()),
    code: codeableConcept,
    subject: z.object({ identifier: z.object({ system: z.string(), value: z.string() }).strict(), display: z.string() }).strict(),
    effectivePeriod: z.object({ start: z.string(), end: z.string() }).strict(),
    issued: z.string().optional(),
    valueQuantity: fhirQuantitySchema,
    component: z.array(z.object({ code: codeableConcept, valueQuantity: fhirQuantitySchema }).strict()).optional(),
  })
  .strict();
export type FhirObservation = z.infer<typeof fhirObservationSchema>;

export const fhirBundleSchema = z
  .object({
    resourceType: z.literal('Bundle'),
    id: z.string(),
    type: z.literal('collection'),
    timestamp: z.string(),
    /** Absent when empty: FHIR JSON never holds an empty array (R4 JSON representation, 2.6.2). */
    entry: z
      .array(z.object({ fullUrl: z.string(), resource: fhirObservationSchema }).strict())
      .min(1)
      .optional(),
  })
  .strict();
export type FhirBundle = z.infer<typeof fhirBundleSchema>;
