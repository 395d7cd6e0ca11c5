/**
 * Web Push message encryption, `aes128gcm` (RFC 8291 section 3.4 over RFC 8188 section 2): one
 * record, a fresh ephemeral P-256 key and salt per message (RFC 8291 section 3.1 forbids reusing
 * them), HKDF-SHA-256 for the keys. What does not change between messages to one subscription —
 * its decoded public key and auth secret, and the start of the key info — is kept (`subscriberKeys`).
 */
import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';

/** RFC 8188 record size: the whole message is one record (Web Push payloads are at most 4 KiB). */
const RECORD_SIZE = 4096;
/** Padding delimiter (1 byte, 2 = last record) and the AES-GCM tag. */
const RECORD_OVERHEAD = 1 + 16;
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0', 'latin1');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0', 'latin1');
const KEY_INFO_LABEL = Buffer.from('WebPush: info\0', 'latin1');

export interface SubscriberKeys {
  /** The subscription's uncompressed P-256 point (`p256dh`, 65 bytes). */
  publicKey: Buffer;
  /** `auth`, at least 16 bytes. */
  authSecret: Buffer;
  /** "WebPush: info" 0x00 ‖ ua_public: the key info up to the sender's key. */
  keyInfoStart: Buffer;
}

/** Decodes a subscription's keys (base64url, as the browser gives them); throws when they cannot be used. */
export function subscriberKeys(p256dh: string, auth: string): SubscriberKeys {
  const publicKey = Buffer.from(p256dh, 'base64url');
  const authSecret = Buffer.from(auth, 'base64url');
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error('the subscription p256dh key is not an uncompressed P-256 point');
  if (authSecret.length < 16) throw new Error('the subscription auth secret is shorter than 16 bytes');
  return { publicKey, authSecret, keyInfoStart: Buffer.concat([KEY_INFO_LABEL, publicKey]) };
}

/** The request body: header (salt ‖ rs ‖ idlen ‖ sender's public key) ‖ the one encrypted record. */
export function encryptPushMessage(keys: SubscriberKeys, plaintext: Uint8Array): Buffer {
  if (plaintext.length > RECORD_SIZE - RECORD_OVERHEAD) throw new Error(`a push message is at most ${RECORD_SIZE - RECORD_OVERHEAD} bytes`);
  const ephemeral = createECDH('prime256v1');
  const senderPublic = ephemeral.generateKeys();
  const shared = ephemeral.computeSecret(keys.publicKey);
  const salt = randomBytes(16);
  const ikm = new Uint8Array(hkdfSync('sha256', shared, keys.authSecret, Buffer.concat([keys.keyInfoStart, senderPublic]), 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, CEK_INFO, 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, NONCE_INFO, 12));
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const headerLength = 16 + 4 + 1 + senderPublic.length;
  const body = Buffer.alloc(headerLength + plaintext.length + RECORD_OVERHEAD);
  salt.copy(body, 0);
  body.writeUInt32BE(RECORD_SIZE, 16);
  body[20] = senderPublic.length;
  senderPublic.copy(body, 21);
  let at = headerLength;
  at += cipher.update(plaintext).copy(body, at);
  at += cipher.update(Buffer.of(2)).copy(body, at);
  at += cipher.final().copy(body, at);
  cipher.getAuthTag().copy(body, at);
  return body;
}
