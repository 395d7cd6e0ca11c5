/**
 * Device secrets: a device signs in to MQTT (username = serial, password = secret) or HTTP
 * (bearer token = secret) with a secret issued at registration; only its hash is stored, in the
 * device record's `credentialHash`.
 *
 * Secrets are 128 random bits, so a salted SHA-256 is enough (nobody can guess such a secret,
 * and a slow hash would cost a second of CPU for every thousand devices reconnecting).
 * Format: `sha256$<salt hex>$<hash hex>`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const SCHEME = 'sha256';

/** A new random secret: 32 hex digits. */
export function newDeviceSecret(): string {
  return randomBytes(16).toString('hex');
}

function digest(salt: Buffer, secret: string): Buffer {
  return createHash('sha256').update(salt).update(secret, 'utf8').digest();
}

export function hashDeviceSecret(secret: string, salt: Buffer = randomBytes(16)): string {
  return `${SCHEME}$${salt.toString('hex')}$${digest(salt, secret).toString('hex')}`;
}

/** Whether the secret matches the stored hash; false for a malformed or missing hash. */
export function verifyDeviceSecret(secret: string, stored: string | null | undefined): boolean {
  if (typeof stored !== 'string') return false;
  const [scheme, saltHex, hashHex] = stored.split('$');
  if (scheme !== SCHEME || saltHex === undefined || hashHex === undefined || !/^[0-9a-f]{32}$/.test(saltHex) || !/^[0-9a-f]{64}$/.test(hashHex)) return false;
  return timingSafeEqual(digest(Buffer.from(saltHex, 'hex'), secret), Buffer.from(hashHex, 'hex'));
}
