/**
 * Device registration by a facility (docs/api.md, "Devices"): the administrator endpoints that
 * issue a device's secret and put the device in a room.
 *   POST   /api/devices/:serial/registration  `{ roomId? }` → `{ serial, secret, device }`
 *   POST   /api/devices/:serial/secret        → `{ serial, secret }` (rotation)
 *   PUT    /api/devices/:serial/room          `{ roomId }` → `{ device }` (`roomId: null` unassigns)
 *   DELETE /api/devices/:serial/room          → `{ device }`
 *
 * Administrators (level 3+) only, and only devices lent to a domain in their scope; every other
 * serial answers 404, so that nobody learns whether it exists elsewhere. A secret is answered once
 * and only its hash is stored (`credentialHash`, a server-only field of the document engine); the
 * device registry's cache of the device (`app.devices.registry`) is dropped at once so that the old secret stops working for new
 * MQTT connections and every HTTP request; with MQTT_DEVICE_ACCOUNTS the production broker's account
 * gets the new secret in the same request (ingest/brokerAccounts.ts). Writes go through the document engine with the
 * caller's claims, so its scope checks apply and its audit log names the administrator.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import { errorResponses } from '@nemuri/shared/apiErrors';
import type { StoredRecord } from '@nemuri/shared/documents/answers';
import { devicePlacedSchema, deviceRegisteredSchema, deviceSecretSchema } from '@nemuri/shared/devices';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { withServerOnlyFields } from '../documents/store.ts';
import { ApiError, apiErrorOfDocument, sendError } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { SERIAL_PATTERN } from './deviceRegistry.ts';
import { hashDeviceSecret, newDeviceSecret } from './deviceSecret.ts';

const roomId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/]+$/, 'Invalid room id');
const registrationBody = z.object({ roomId: roomId.optional() }).strict();
const roomBody = z.object({ roomId: roomId.nullable() }).strict();
const emptyBody = z.object({}).strict();
const deviceParams = z.object({ serial: z.string() });

interface Found {
  data: Data;
  version: number;
}

type Write = { op: 'update'; path: string; data: Data };

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export const devicesPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const registry = app.devices.registry;
    const store = app.documents;

    const administrator = (principal: Claims | null): Claims => {
      if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
      if (principal.accessLevel < ROLE_LEVELS.administrator)
        throw new ApiError(403, 'permission-denied', 'Registering devices needs an administrator (level 3 or above)');
      return principal;
    };

    /** A record the caller may read, or null (absent or outside the scope: the caller must not tell which). */
    const readable = async (claims: Claims, path: string): Promise<Found | null> => {
      try {
        const found = await store.get(claims, path);
        return found === null ? null : { data: found.document, version: found.version };
      } catch (error) {
        if (error instanceof DocumentError && error.code === 'permission-denied') return null;
        throw error;
      }
    };

    /** The device, lent to a domain in the caller's scope; else 404. */
    const deviceOf = async (claims: Claims, serial: string): Promise<Found & { domainId: string }> => {
      const missing = new ApiError(404, 'not-found', `No device ${serial} in your facilities`);
      if (!SERIAL_PATTERN.test(serial)) throw missing;
      const device = await readable(claims, `devices/${serial}`);
      const domainId = nonEmpty(device?.data.domainId);
      if (device === null || domainId === null) throw missing;
      if (device.data.status === 'retired') throw new ApiError(412, 'failed-precondition', `Device ${serial} is retired`);
      return { ...device, domainId };
    };

    /** The room, in the caller's scope and the device's domain, free or holding this device. */
    const roomFor = async (claims: Claims, id: string, serial: string, deviceDomainId: string): Promise<Found> => {
      const room = await readable(claims, `rooms/${id}`);
      if (room === null) throw new ApiError(404, 'not-found', `No room ${id} in your facilities`);
      if (room.data.domainId !== deviceDomainId) throw new ApiError(400, 'invalid-argument', `Room ${id} belongs to another facility than device ${serial}`);
      const holder = nonEmpty(room.data.deviceSerial);
      if (holder !== null && holder !== serial) throw new ApiError(409, 'already-exists', `Room ${id} already has device ${holder}: unassign it first`);
      return room;
    };

    /** Clears `deviceSerial` of the rooms (other than `keep`) that name this device and the caller may write. */
    const releaseRooms = async (
      claims: Claims,
      serial: string,
      device: Found,
      keep: string | null,
    ): Promise<{ reads: { path: string; version: number }[]; writes: Write[] }> => {
      const ids = new Set<string>();
      const assigned = nonEmpty(device.data.roomId);
      if (assigned !== null) ids.add(assigned);
      const holding = await store.lookup(claims, { collection: 'rooms', field: 'deviceSerial', value: serial });
      const holdingId = nonEmpty(holding?.documentReferenceId);
      if (holdingId !== null) ids.add(holdingId);
      const reads: { path: string; version: number }[] = [];
      const writes: Write[] = [];
      for (const id of ids) {
        if (id === keep) continue;
        const room = await readable(claims, `rooms/${id}`);
        if (room === null || room.data.deviceSerial !== serial) continue;
        reads.push({ path: `rooms/${id}`, version: room.version });
        writes.push({ op: 'update', path: `rooms/${id}`, data: { deviceSerial: null } });
      }
      return { reads, writes };
    };

    /** Moves the device to `target` (null: no room): both records change in one transaction. */
    const placement = async (claims: Claims, serial: string, device: Found & { domainId: string }, target: string | null) => {
      const released = await releaseRooms(claims, serial, device, target);
      const reads = [{ path: `devices/${serial}`, version: device.version }, ...released.reads];
      const writes: Write[] = [...released.writes];
      if (target !== null) {
        const room = await roomFor(claims, target, serial, device.domainId);
        reads.push({ path: `rooms/${target}`, version: room.version });
        if (room.data.deviceSerial !== serial) writes.push({ op: 'update', path: `rooms/${target}`, data: { deviceSerial: serial } });
      }
      return { reads, writes, deviceFields: { roomId: target } };
    };

    const commit = async (claims: Claims, reads: { path: string; version: number }[], writes: Write[]): Promise<void> => {
      await store.commit(withServerOnlyFields(claims), { reads, writes });
    };

    const answerErrors = async <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> => {
      reply.header('cache-control', 'no-store');
      try {
        return await fn();
      } catch (error) {
        const apiError = error instanceof DocumentError ? apiErrorOfDocument(error) : error;
        if (apiError instanceof ApiError) return sendError(reply, apiError.statusCode, apiError.code, apiError.message);
        throw error;
      }
    };

    // The engine's records always carry the common fields (documentReferenceId, documentPath) its answers name.
    const deviceRecord = async (claims: Claims, serial: string): Promise<StoredRecord | null> =>
      ((await store.get(claims, `devices/${serial}`))?.document as StoredRecord | undefined) ?? null;

    app.post(
      '/api/devices/:serial/registration',
      {
        schema: {
          summary: 'Registers a device: a new secret, and the room if given',
          params: deviceParams,
          body: registrationBody,
          response: { 200: deviceRegisteredSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) =>
        answerErrors(reply, async () => {
          const claims = administrator(request.principal);
          const { serial } = request.params;
          const body = request.body;
          const device = await deviceOf(claims, serial);
          const moved = body.roomId === undefined ? null : await placement(claims, serial, device, body.roomId);
          const secret = newDeviceSecret();
          const deviceUpdate: Write = {
            op: 'update',
            path: `devices/${serial}`,
            data: { credentialHash: hashDeviceSecret(secret), status: 'in_use', ...(moved?.deviceFields ?? {}) },
          };
          await commit(claims, moved?.reads ?? [{ path: `devices/${serial}`, version: device.version }], [...(moved?.writes ?? []), deviceUpdate]);
          await registry.credentialChanged(serial, secret);
          request.log.info({ serial, by: claims.uid, roomId: body.roomId ?? null }, 'device registered');
          return { serial, secret, device: await deviceRecord(claims, serial) };
        }),
    );

    app.post(
      '/api/devices/:serial/secret',
      {
        schema: {
          summary: "Rotates a device's secret",
          params: deviceParams,
          body: emptyBody,
          response: { 200: deviceSecretSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) =>
        answerErrors(reply, async () => {
          const claims = administrator(request.principal);
          const { serial } = request.params;
          const device = await deviceOf(claims, serial);
          const secret = newDeviceSecret();
          await commit(
            claims,
            [{ path: `devices/${serial}`, version: device.version }],
            [{ op: 'update', path: `devices/${serial}`, data: { credentialHash: hashDeviceSecret(secret) } }],
          );
          await registry.credentialChanged(serial, secret);
          request.log.info({ serial, by: claims.uid }, 'device secret rotated');
          return { serial, secret };
        }),
    );

    const moveTo = async (claims: Claims, serial: string, target: string | null) => {
      const device = await deviceOf(claims, serial);
      const moved = await placement(claims, serial, device, target);
      await commit(claims, moved.reads, [...moved.writes, { op: 'update', path: `devices/${serial}`, data: moved.deviceFields }]);
      return { device: await deviceRecord(claims, serial) };
    };

    app.put(
      '/api/devices/:serial/room',
      {
        schema: {
          summary: 'Puts a device in a room (null: no room)',
          params: deviceParams,
          body: roomBody,
          response: { 200: devicePlacedSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) =>
        answerErrors(reply, async () => {
          const claims = administrator(request.principal);
          const body = request.body;
          return moveTo(claims, request.params.serial, body.roomId);
        }),
    );

    app.delete(
      '/api/devices/:serial/room',
      {
        schema: {
          summary: 'Takes a device out of its room',
          params: deviceParams,
          response: { 200: devicePlacedSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) => answerErrors(reply, async () => moveTo(administrator(request.principal), request.params.serial, null)),
    );
  },
  { name: 'devicesApi', dependencies: ['documents', 'devices', 'principal'], encapsulate: true },
);
