/** The server's health (`GET /api/health`) for the master overview. */
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';

export interface Health {
  state: 'loading' | 'ok' | 'error' | 'unreachable';
  version?: string;
  database?: string;
}

type HealthBody = { status?: unknown; version?: unknown; database?: unknown } | null;

function healthOf(body: HealthBody, ok: boolean): Health {
  return {
    state: ok && body?.status === 'ok' ? 'ok' : 'error',
    ...(typeof body?.version === 'string' ? { version: body.version } : {}),
    ...(typeof body?.database === 'string' ? { database: body.database } : {}),
  };
}

export function useHealth(): Health {
  const [health, setHealth] = useState<Health>({ state: 'loading' });
  useEffect(() => {
    let active = true;
    http.json<HealthBody>('GET', '/api/health').then(
      (body) => active && setHealth(healthOf(body, true)),
      // A 503 still says what is wrong; no answer at all is unreachable.
      (error: unknown) =>
        active && setHealth(error instanceof ApiError && !error.isNetworkFailure ? healthOf(error.body as HealthBody, false) : { state: 'unreachable' }),
    );
    return () => {
      active = false;
    };
  }, []);
  return health;
}
