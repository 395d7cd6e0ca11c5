/**
 * What the server's live WebSockets (`/api/live`, `/api/signals/live`, `/api/monitoring/live`) and
 * the web app's socket clients agree on: the close codes the server ends a socket with
 * (docs/security.md, "Live sockets").
 */

/**
 * The socket's session ended (signed out, disabled, expired) or the user's rights changed (level,
 * domain): the client opens a new socket, which acts for the session as it is now, and re-reads
 * who is signed in.
 */
export const SESSION_CHANGED_CLOSE_CODE = 4401;

/**
 * Refused by a limit (too many sockets for the user) or for misbehaving (not reading): retrying at
 * once would be refused again, so the client waits its longest reconnect delay.
 */
export const POLICY_CLOSE_CODE = 1008;
