/**
 * Device registration by a facility's administrator (docs/api.md "Devices"; server
 * devices/devicesPlugin.ts): what the endpoints answer. The device is its `devices/{serial}` record
 * as the caller reads it through the document engine (server-only fields such as the secret's hash
 * never leave the server); the secret is answered once, when it is made.
 */
import { z } from 'zod/v3';
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
