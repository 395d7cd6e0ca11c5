/**
 * Sleep records from the live stream (sleepAnalysisService.ts), and a re-run on request:
 *   POST /api/rooms/:roomId/sleeps/:day/analysis → `{ roomId, day, frames, written }`
 * (general staff 2+ whose scope holds the room; a day whose record came from an import is not
 * replaced: `written: false`).
 */
import type { FastifyPluginAsync } from 'fastify';
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { DocumentStore } from '../documents/store.ts';
import { sendError } from '../http/errors.ts';
import type { IngestPipeline } from '../ingest/pipeline.ts';
import { SleepAnalysisService } from './sleepAnalysisService.ts';

export interface SleepPluginOptions {
  database: Database;
  pipeline: IngestPipeline;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const sleepPlugin: FastifyPluginAsync<SleepPluginOptions> = async (app, { database, pipeline }) => {
  const documents = new DocumentStore(database, app.log);
  const service = new SleepAnalysisService({ documents, signals: pipeline.store, directory: app.monitoring.directory, log: app.log });
  app.addHook('onReady', () => service.start());
  app.addHook('onClose', () => service.stop());

  // Replays a whole night of signals: limited per user, tenant and process (http/fairShare.ts).
  app.post<{ Params: { roomId: string; day: string } }>('/api/rooms/:roomId/sleeps/:day/analysis', { config: { fairShare: 'analysis' } }, async (request, reply) => {
    const claims = request.principal;
    const { roomId, day } = request.params;
    if (claims === null) return sendError(reply, 401, 'unauthenticated', 'Sign in to analyse sleep');
    if (claims.accessLevel < ROLE_LEVELS.generalStaff) return sendError(reply, 403, 'permission-denied', 'Missing or insufficient permissions.');
    if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return sendError(reply, 400, 'invalid-argument', 'day must be YYYY-MM-DD');
    let room;
    try {
      room = await documents.get(claims, `rooms/${roomId}`);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      return reply.code(HTTP_STATUS_OF_CODE[error.code]).type('application/json; charset=utf-8').send({ code: error.code, message: error.message });
    }
    if (room === null) return sendError(reply, 404, 'not-found', `No room ${roomId}`);
    const serial = room.document.deviceSerial;
    if (typeof serial !== 'string' || serial === '') return sendError(reply, 412, 'failed-precondition', 'The room has no device: there are no stored signals to analyse');
    return service.analyze(roomId, serial, day);
  });
};
