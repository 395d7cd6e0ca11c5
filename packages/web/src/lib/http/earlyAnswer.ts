/**
 * Answers requested by index.html's own early scripts before the app's code runs (sessionCheck.ts),
 * handed to the app's first call of the same path so that the request is not sent twice.
 */
import { createHttpClient, http, type FetchLike, type HttpClient } from './httpClient.ts';

export interface EarlyAnswer {
  path: string;
  answer: Promise<Response>;
}

declare global {
  interface Window {
    nemuriEarlyAnswers?: EarlyAnswer[];
  }
}

/**
 * A client whose first GET of `path` takes the early answer for it, when there is one (the built
 * app; not the dev server or tests), and which fetches as usual after that.
 */
export function clientTakingEarlyAnswer(path: string): HttpClient {
  const early = window.nemuriEarlyAnswers?.find((candidate) => candidate.path === path);
  if (early === undefined) return http;
  window.nemuriEarlyAnswers = window.nemuriEarlyAnswers?.filter((candidate) => candidate !== early);
  let pending: Promise<Response> | undefined = early.answer;
  const send: FetchLike = (url, init) => {
    const taken = url === path && init.method === 'GET' ? pending : undefined;
    pending = undefined;
    return taken ?? globalThis.fetch(url, init);
  };
  return createHttpClient({ fetch: send });
}
