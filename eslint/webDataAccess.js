// How the web app reaches its server, kept by the linter (issue 23):
// - every HTTP call goes through packages/web/src/lib/http (one error type, the request id, 429
//   handling), and every live socket through packages/web/src/lib/live (one reconnect policy), so
//   `fetch`, `XMLHttpRequest`, `WebSocket` and `EventSource` are for those two folders only;
// - a feature's queries live in its api/ folder: no query (`collection:`) written inside a component.

const WEB = 'packages/web/src';

const SERVER_CALL = 'calls to the server go through lib/http (httpClient.ts: http.json, fetchResponse; upload.ts)';
const SOCKET = 'live sockets go through lib/live (liveSocket.ts, browserLiveSocket.ts)';

export const webServerCalls = {
  files: [`${WEB}/**/*.{ts,tsx}`],
  ignores: [
    `${WEB}/lib/http/**`,
    `${WEB}/lib/live/**`,
    // The service worker's own script (emitted as /sw-notifications.js and loaded by /sw.js with
    // importScripts): it runs without the page, its session or its modules.
    `${WEB}/app/shell/notificationWorker.ts`,
  ],
  rules: {
    'no-restricted-globals': [
      'error',
      { name: 'fetch', message: SERVER_CALL },
      { name: 'XMLHttpRequest', message: SERVER_CALL },
      { name: 'EventSource', message: SOCKET },
      { name: 'WebSocket', message: SOCKET },
    ],
    'no-restricted-properties': [
      'error',
      ...['window', 'globalThis', 'self'].flatMap((object) => [
        { object, property: 'fetch', message: SERVER_CALL },
        { object, property: 'XMLHttpRequest', message: SERVER_CALL },
        { object, property: 'WebSocket', message: SOCKET },
      ]),
    ],
  },
};

const INLINE_QUERY = "a document query belongs in the feature's api/ folder (a hook or query function there), not in a component";

export const webInlineQueries = {
  files: [`${WEB}/**/*.tsx`],
  ignores: [`${WEB}/**/*.test.tsx`],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        // A collection named by a string or template: a document query (the audit log filter's
        // `collection` variable is not one).
        selector: "Property[key.name='collection'][value.type=/^(Literal|TemplateLiteral)$/]",
        message: INLINE_QUERY,
      },
      { selector: 'CallExpression[callee.name=/^use(Query|Count|Document)$/] > ObjectExpression', message: INLINE_QUERY },
    ],
  },
};
