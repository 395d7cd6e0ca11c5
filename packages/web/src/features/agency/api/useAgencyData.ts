/**
 * The agency area's data for one agency, loaded from the server and loaded again after every
 * change the screens make (`reload`). Not live: bills and partners change by this screen's own
 * actions, and devices move rarely, so a reload after each action keeps it current.
 */
import { useCallback, useEffect, useState } from 'react';
import { agencyApi, type AgencyOverview, type AgencyStatistics } from './agencyApi.ts';

export interface Loaded<T> {
  data: T | null;
  loading: boolean;
  error: unknown;
  reload: () => void;
}

/** Calls `load` whenever `key` changes or `reload` is called; null key loads nothing. */
function useLoaded<T>(key: string | null, load: (key: string) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string | null; round: number; data: T | null; error: unknown }>({ key: null, round: -1, data: null, error: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (key === null) return undefined;
    let current = true;
    load(key).then(
      (data) => current && setState({ key, round, data, error: null }),
      (error: unknown) => current && setState({ key, round, data: null, error }),
    );
    return () => {
      current = false;
    };
    // `load` is a module-level function: the key and the round decide what to load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  const fresh = state.key === key;
  // While reloading the same agency, what was loaded before stays shown (data) next to `loading`.
  return { data: fresh ? state.data : null, loading: key !== null && (!fresh || state.round !== round), error: fresh ? state.error : null, reload };
}

export function useAgencyOverview(agencyId: string | null): Loaded<AgencyOverview> {
  return useLoaded(agencyId, agencyApi.overview);
}

export function useAgencyStatistics(agencyId: string | null): Loaded<AgencyStatistics> {
  return useLoaded(agencyId, async (id) => (await agencyApi.statistics(id)).statistics);
}
