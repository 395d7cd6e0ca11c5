/** Messages between the push encryption pool (pushEncryptionPool.ts) and its worker threads. */

export interface EncryptionJob {
  p256dh: string;
  auth: string;
  /** Index into the request's `payloads` (one alert's messages repeat the same few texts). */
  payload: number;
}

export interface EncryptionRequest {
  id: number;
  payloads: string[];
  jobs: EncryptionJob[];
}

/** The bodies end to end in one transferred buffer (`ends[i]` is where job i's ends), or each job's error. */
export interface EncryptionReply {
  id: number;
  bodies: ArrayBuffer;
  ends: number[];
  errors: (string | null)[];
}
