/**
 * One socket write per event-loop turn instead of one per message. A live-signal socket gets a
 * frame per device channel and second (3,000 a second at 1,000 watched devices); ws writes each
 * message as a frame header and its bytes under a cork of its own, so every message cost one
 * `writev` system call, about a quarter of the server thread at 1,000 devices (docs/scaling.md).
 * Here the first message of a turn corks the connection's TCP socket and the turn's end (the
 * `setImmediate` after the I/O callbacks of this loop iteration) uncorks it, so all messages a
 * socket got while the turn handled many device messages leave in one `writev`.
 *
 * The delay is the rest of the current turn, never a timer. `bufferedAmount` still counts what
 * is corked, so the backpressure check of the socket runtime sees the same bytes as before.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Sockets corked in this turn. */
const corked = new Set<Socket>();
let scheduled = false;

function uncorkAll(): void {
  scheduled = false;
  // Taken first: an uncork writes, and what that calls back could cork again (for the next turn).
  const sockets = [...corked];
  corked.clear();
  for (const socket of sockets) socket.uncork();
}

/** The TCP socket under a ws WebSocket (`_socket`: ws has no public accessor; absent before it connects). */
function tcpOf(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket | null })._socket ?? undefined;
}

/** Holds this socket's writes until the end of the current event-loop turn (at most once a turn). */
export function corkForTurn(socket: WebSocket): void {
  const tcp = tcpOf(socket);
  if (tcp === undefined || tcp.destroyed || corked.has(tcp)) return;
  tcp.cork();
  corked.add(tcp);
  if (!scheduled) {
    scheduled = true;
    setImmediate(uncorkAll);
  }
}
