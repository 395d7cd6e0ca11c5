/**
 * Sleep records from the live stream (sleepAnalysisService.ts), and a re-run on request:
 *   POST /api/rooms/:roomId/sleeps/:day/analysis → `{ roomId, day, frames, written }`
 * (general staff 2+ whose scope holds the room; a day whose record came from an import is not
 * replaced: `written: false`).
 */
import fp from 'fastify-plugin';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { analyzedDaySchema } from '@nemuri/shared/sleepAnalysis';
import { apiErrorOfDocument, sendApiError, sendError } from '../http/errors.ts';
import { SleepAnalysisService } from './sleepAnalysisService.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const sleepPlugin = fp(
  async (app) => {
    const documents = app.documents;
    const service = new SleepAnalysisService({ documents, signals: app.signals.store, directory: app.monitoring.directory, log: app.log });
    app.addHook('onReady', () => service.start());
    app.addHook('onClose', () => service.stop());

    // Replays a whole night of signals: limited per user, tenant and process (http/fairShare.ts).
    app.post<{ Params: { roomId: string; day: string } }>(
      '/api/rooms/:roomId/sleeps/:day/analysis',
      {
        schema: {
          summary: "Scores a room's sleep day again from its stored signals",
          response: { 200: analyzedDaySchema, ...errorResponses(400, 401, 403, 404, 412, 429) },
        },
        config: { fairShare: 'analysis' },
      },
      async (request, reply) => {
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
          return sendApiError(reply, apiErrorOfDocument(error));
        }
        if (room === null) return sendError(reply, 404, 'not-found', `No room ${roomId}`);
        const serial = room.document.deviceSerial;
        if (typeof serial !== 'string' || serial === '')
          return sendError(reply, 412, 'failed-precondition', 'The room has no device: there are no stored signals to analyse');
        return service.analyze(roomId, serial, day);
      },
    );
  },
  { name: 'sleep', dependencies: ['documents', 'signals', 'monitoring', 'principal'], encapsulate: true },
);
