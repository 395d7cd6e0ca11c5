/**
 * The device registration endpoints (docs/api.md, "Devices"): register with a new secret, rotate
 * it, put the device in a room or take it out. The secret comes back from these calls only, once.
 */
import type { RecordOf } from '../../lib/documents/records.ts';
import { jsonRequest, stringField } from '../../lib/jsonRequest.ts';

export type Device = RecordOf<'devices'>;

export interface Registered {
  serial: string;
  secret: string;
}

/** An answer other than 2xx: the server's code (not-found, permission-denied, …) and message. */
export class DeviceApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DeviceApiError';
  }
}

async function call<T>(method: string, path: string, body?: object): Promise<T> {
  const reply = await jsonRequest(method, path, body);
  if (!reply.ok) throw new DeviceApiError(reply.status, stringField(reply.body, 'code') ?? 'internal', stringField(reply.body, 'message') ?? reply.text);
  return reply.body as T;
}

const base = (serial: string) => `/api/devices/${encodeURIComponent(serial)}`;

export function registerDevice(serial: string, roomId: string | null): Promise<Registered> {
  return call<Registered>('POST', `${base(serial)}/registration`, roomId === null ? {} : { roomId });
}

export function rotateDeviceSecret(serial: string): Promise<Registered> {
  return call<Registered>('POST', `${base(serial)}/secret`, {});
}

export function assignDeviceRoom(serial: string, roomId: string): Promise<{ device: Device | null }> {
  return call('PUT', `${base(serial)}/room`, { roomId });
}

export function unassignDeviceRoom(serial: string): Promise<{ device: Device | null }> {
  return call('DELETE', `${base(serial)}/room`);
}
