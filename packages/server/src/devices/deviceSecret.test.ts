import { describe, expect, it } from 'vitest';
import { hashDeviceSecret, newDeviceSecret, verifyDeviceSecret } from './deviceSecret.ts';

describe('device secrets', () => {
  it('verifies the secret it hashed and nothing else', () => {
    const secret = newDeviceSecret();
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    const stored = hashDeviceSecret(secret);
    expect(stored).toMatch(/^sha256\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(verifyDeviceSecret(secret, stored)).toBe(true);
    expect(verifyDeviceSecret(`${secret}x`, stored)).toBe(false);
    expect(verifyDeviceSecret('', stored)).toBe(false);
  });

  it('salts: one secret hashes differently each time', () => {
    expect(hashDeviceSecret('a')).not.toBe(hashDeviceSecret('a'));
  });

  it.each([null, undefined, '', 'sha256$zz$00', 'md5$00$00', `sha256$${'0'.repeat(32)}$${'0'.repeat(63)}`])('refuses the malformed hash %s', (stored) => {
    expect(verifyDeviceSecret('secret', stored)).toBe(false);
  });
});
