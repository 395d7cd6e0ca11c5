/**
 * The device registration endpoints (docs/api.md, "Devices"): register with a new secret, rotate
 * it, put the device in a room or take it out. The secret comes back from these calls only, once.
 */
import type { RecordOf } from '../../../lib/documents/records.ts';
import { http, type HttpMethod } from '../../../lib/http/httpClient.ts';

export type Device = RecordOf<'devices'>;

export interface Registered {
  serial: string;
  secret: string;
}

/** A failure is the page's ApiError: the server's code (not-found, permission-denied, …) and message. */
function call<T>(method: HttpMethod, path: string, body?: object): Promise<T> {
  return http.json<T>(method, path, { body });
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
