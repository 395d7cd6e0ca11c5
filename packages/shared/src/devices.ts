/**
 * Device registration by a facility's administrator (docs/api.md "Devices"; server
 * devices/devicesPlugin.ts): what the endpoints answer. The device is its `devices/{serial}` record
 * as the caller reads it through the document engine (server-only fields such as the secret's hash
 * never leave the server); the secret is answered once, when it is made. And what HTTP ingest
 * answers a device.
 */
import { z } from 'zod/v3';
import { apiErrorBody } from './apiErrors.ts';
import { storedRecordSchema } from './documents/answers.ts';

/** The device's record; null if the caller can no longer read it after the change. */
const deviceRecord = storedRecordSchema.nullable();

/** `POST /api/devices/:serial/registration`. */
export const deviceRegisteredSchema = z.object({ serial: z.string(), secret: z.string(), device: deviceRecord }).strict();
export type DeviceRegistered = z.infer<typeof deviceRegisteredSchema>;

/** `POST /api/devices/:serial/secret` (rotation). */
export const deviceSecretSchema = z.object({ serial: z.string(), secret: z.string() }).strict();
export type DeviceSecret = z.infer<typeof deviceSecretSchema>;

/** `PUT` and `DELETE /api/devices/:serial/room`. */
export const devicePlacedSchema = z.object({ device: deviceRecord }).strict();
export type DevicePlaced = z.infer<typeof devicePlacedSchema>;

/** `POST /api/devices/:serial/frames` (HTTP ingest, docs/device-protocol.md): 202 once the frames are stored. */
export const framesAcceptedSchema = z.object({ frames: z.number().int().min(0) }).strict();
export type FramesAccepted = z.infer<typeof framesAcceptedSchema>;

/** A stream the parser rejected answers 400 with where and why (the parser's ParseError), besides the API's `{ code, message }`. */
export const ingestErrorBody = apiErrorBody
  .extend({
    parseError: z
      .object({
        /** `truncated`, `bad-magic`, `bad-crc`, `bad-header`, `unsupported`, `invalid-base64`. */
        code: z.string(),
        frame: z.number().int().nullable(),
        nestedFrame: z.number().int().nullable(),
        offset: z.number().int().nullable(),
      })
      .strict()
      .optional(),
  })
  .strict();
