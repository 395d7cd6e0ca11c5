/**
 * A stored signal read, `GET /api/devices/:serial/signals?channel&from&to` (docs/api.md): one channel
 * over at most SIGNAL_READ_MAX_MS. The server's route schema; `from` and `to` come out as epoch
 * milliseconds.
 */
import { z } from 'zod/v3';
import { SIGNAL_CHANNELS } from './signalChannels.ts';

export const SIGNAL_READ_MAX_MS = 24 * 3_600_000;

const instant = z
  .string()
  .min(1)
  .max(64)
  .refine((text) => Number.isFinite(Date.parse(text)), 'an ISO 8601 time, e.g. 2026-11-22T21:00:00Z')
  .transform((text) => Date.parse(text));

export const signalReadQuery = z
  .object({ channel: z.enum(SIGNAL_CHANNELS), from: instant, to: instant })
  .refine((query) => query.to > query.from && query.to - query.from <= SIGNAL_READ_MAX_MS, {
    message: `to must be after from, by at most ${SIGNAL_READ_MAX_MS / 3_600_000} hours`,
    path: ['to'],
  });
