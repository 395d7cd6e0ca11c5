import type { FastifyReply } from 'fastify';

/**
 * Sends bytes made elsewhere (a file, or JSON a report thread wrote) as they are. A route whose
 * `response` schemas type its JSON answers takes only those through its typed reply; these bytes
 * are neither checked nor serialised again (the response tests check them against the document).
 */
export function sendBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.send(bytes);
}
