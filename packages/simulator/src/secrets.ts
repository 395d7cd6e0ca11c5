// Device secrets: MQTT username = serial, password = the device's secret.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Key of the demo secret derivation; demo devices are registered with these secrets. */
export const DEMO_SECRET_KEY = 'nemuri-demo-device-secret';

/**
 * The default secret of a simulated device: the first 32 hex digits of HMAC-SHA256(key
 * "nemuri-demo-device-secret", serial). Only for demo devices: real devices get random secrets at registration.
 */
export function demoSecret(serial: string): string {
  return createHmac('sha256', DEMO_SECRET_KEY).update(serial).digest('hex').slice(0, 32);
}

/** Reads a JSON map { "serial": "secret" }. */
export function readSecretsFile(path: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the secrets file ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
    throw new Error(`the secrets file ${path} must be a JSON object mapping serials to secret strings`);
  }
  return parsed as Record<string, string>;
}
