/**
 * The session check (`GET /api/me`) sent as soon as index.html arrives, beside the download of the
 * app's code: the app draws its first screen only once it knows who is signed in (main.tsx), and on
 * a slow network (one round trip ≈ 0.6 s on "Fast 3G") the check would otherwise start only after
 * all that code has arrived and run. The app takes the answer with `takeEarlySessionCheck`.
 *
 * Its own build entry with no imports (vite.config.ts `firstPageRequests`): a module shared with
 * the app would put it behind the app's chunks. So it makes its request id itself, the same way as
 * httpClient.ts.
 */
import type { EarlyAnswer } from './earlyAnswer.ts';

const bytes = new Uint8Array(16);
globalThis.crypto.getRandomValues(bytes);
const requestId = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const answer = fetch('/api/me', { method: 'GET', credentials: 'same-origin', headers: { accept: 'application/json', 'x-request-id': requestId } });
// A failure is the app's to report when it takes the answer (or the app asks again).
answer.catch(() => undefined);
const early: EarlyAnswer = { path: '/api/me', answer };
window.nemuriEarlyAnswers = [...(window.nemuriEarlyAnswers ?? []), early];
