/**
 * HTTP ingest (docs/device-protocol.md, "HTTP"): `POST /api/devices/:serial/frames` with
 * `Authorization: Bearer <device secret>` and an SMF stream as `application/octet-stream` (or base64 as
 * `text/plain`). 202 `{ frames }` once the frames are stored; 401 for an unknown serial or a wrong
 * secret alike (the answer does not tell which); 400 with the parser's code and message for a
 * rejected stream; 413 above the size limit; 429 above the rate limit per device.
 */
import fp from 'fastify-plugin';
import { ParseError } from '@nemuri/parser/errors';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { framesAcceptedSchema, ingestErrorBody } from '@nemuri/shared/devices';
import { sendError } from '../http/errors.ts';
/** Largest request body: 16 full-size frames, or a minute of everything a device measures. */
export const MAX_INGEST_BODY = 4 * 1024 * 1024;
/** Requests per device and second, averaged (a burst of twice as many passes). */
export const INGEST_RATE_PER_SECOND = 20;

/** A token bucket per device. */
class RateLimit {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
  ) {}

  take(key: string, nowMs = Date.now()): boolean {
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, at: nowMs };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * this.perSecond);
    bucket.at = nowMs;
    if (this.#buckets.size > 100_000) this.#buckets.clear();
    this.#buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

function bearerOf(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

export const ingestPlugin = fp(
  async (app) => {
    const pipeline = app.ingest;
    const limit = new RateLimit(INGEST_RATE_PER_SECOND, INGEST_RATE_PER_SECOND * 2);
    // Encapsulated: these parsers apply to this plugin's route only.
    app.addContentTypeParser(['application/octet-stream', 'text/plain'], { parseAs: 'buffer', bodyLimit: MAX_INGEST_BODY }, (_request, body, done) =>
      done(null, body),
    );

    app.post<{ Params: { serial: string } }>(
      '/api/devices/:serial/frames',
      {
        bodyLimit: MAX_INGEST_BODY,
        schema: {
          summary: "A device's SMF frames (octet-stream, or base64 as text/plain) with its secret as Bearer",
          response: { 202: framesAcceptedSchema, 400: ingestErrorBody, ...errorResponses(401, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { serial } = request.params;
        const secret = bearerOf(request.headers.authorization);
        if (secret === null) return sendError(reply, 401, 'unauthenticated', 'a device secret is required: Authorization: Bearer <secret>');
        const device = await app.devices.registry.authenticate(serial, secret);
        if (device === null) {
          request.log.warn({ serial }, 'HTTP ingest refused: unknown device or wrong secret');
          return sendError(reply, 401, 'unauthenticated', 'unknown device or wrong secret');
        }
        if (!limit.take(serial))
          return sendError(reply, 429, 'resource-exhausted', `more than ${INGEST_RATE_PER_SECOND} requests a second for this device: send larger batches`);
        if (!Buffer.isBuffer(request.body))
          return sendError(reply, 400, 'invalid-argument', 'the body must be an SMF stream (application/octet-stream) or base64 text (text/plain)');
        try {
          const text = /^text\/plain\b/i.test(request.headers['content-type'] ?? '');
          const bytes = text ? pipeline.decodeBase64(request.body.toString('latin1')) : request.body;
          const { frames, durable } = pipeline.ingest(device, bytes);
          await durable;
          return reply.code(202).send({ frames });
        } catch (error) {
          if (!(error instanceof ParseError)) throw error;
          return reply
            .code(400)
            .type('application/json; charset=utf-8')
            .send({
              code: 'invalid-argument',
              message: error.message,
              parseError: { code: error.code, frame: error.frame ?? null, nestedFrame: error.nestedFrame ?? null, offset: error.offset ?? null },
            });
        }
      },
    );
  },
  { name: 'ingestApi', dependencies: ['ingest', 'devices'], encapsulate: true },
);
