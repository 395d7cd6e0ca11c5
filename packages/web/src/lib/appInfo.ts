/** What the server says about itself before sign-in (GET /api/app-info), fetched once per page. */
import { useEffect, useState } from 'react';
import type { AppInfoResponse } from '@nemuri/shared/appInfo';
import { http } from './http/httpClient.ts';

export type AppInfo = AppInfoResponse;

let pending: Promise<AppInfo> | null = null;

export function fetchAppInfo(): Promise<AppInfo> {
  pending ??= http.json<AppInfo>('GET', '/api/app-info');
  // A failure is not kept: the next caller asks again.
  pending.catch(() => (pending = null));
  return pending;
}

/** The app info once it has arrived; null meanwhile or when it could not be read (logged). */
export function useAppInfo(): AppInfo | null {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    let active = true;
    fetchAppInfo().then(
      (value) => active && setInfo(value),
      (error: unknown) => console.warn('[app-info] unavailable', error),
    );
    return () => {
      active = false;
    };
  }, []);
  return info;
}
