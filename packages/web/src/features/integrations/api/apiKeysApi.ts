/**
 * A domain's integration API keys (docs/api.md, "Integrations"): listed a page at a time, created
 * (the answer holds the secret, once) and revoked. The server checks who may (facility
 * administrators, levels 3-5); a refusal's code is shown in Japanese (locale `integrations.errors`).
 */
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import {
  apiKeyRevokePath,
  apiKeysPath,
  type ApiKeyCreate,
  type ApiKeyCreatedResponse,
  type ApiKeyListResponse,
  type ApiKeyView,
} from '@nemuri/shared/integrations';
import { ApiError } from '../../../lib/http/apiError.ts';
import { http } from '../../../lib/http/httpClient.ts';

function call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  return http.json<T>(method, path, { body });
}

export const apiKeysApi = {
  list: (domainId: string, page: number) => call<ApiKeyListResponse>('GET', `${apiKeysPath(domainId)}?page=${page}`),
  create: (domainId: string, input: ApiKeyCreate) => call<ApiKeyCreatedResponse>('POST', apiKeysPath(domainId), input),
  revoke: (domainId: string, keyId: string) => call<{ key: ApiKeyView }>('POST', apiKeyRevokePath(domainId, keyId), {}),
};

const KNOWN = ['permission-denied', 'not-found', 'invalid-argument', 'failed-precondition', 'unauthenticated'];

export function apiKeyErrorMessage(t: TFunction, error: unknown): string {
  const code = error instanceof ApiError && KNOWN.includes(error.code) ? error.code : 'unexpected';
  return t(`integrations.errors.${code}`);
}

/** One page of the domain's keys; `reload` after a change. */
export function useApiKeys(domainId: string, page: number): { data: ApiKeyListResponse | null; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ data: ApiKeyListResponse | null; error: unknown }>({ data: null, error: null });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    apiKeysApi.list(domainId, page).then(
      (data) => current && setState({ data, error: null }),
      (error: unknown) => current && setState({ data: null, error }),
    );
    return () => {
      current = false;
    };
  }, [domainId, page, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
