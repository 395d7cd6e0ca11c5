/**
 * At most two socket writes per event-loop turn instead of one per message. A live-signal socket gets a
 * frame per device channel and second (3,000 a second at 1,000 watched devices); ws writes each
 * message as a frame header and its bytes under a cork of its own, so every message cost one
 * `writev` system call, about a quarter of the server thread at 1,000 devices (docs/scaling.md).
 * Here the first message of a turn leaves at once; a second one in the same turn corks the
 * connection's TCP socket and the turn's end (the `setImmediate` after the I/O callbacks of this
 * loop iteration) uncorks it, so the rest of what a socket got while the turn handled many device
 * messages leaves in one `writev`. A socket that gets one message a turn (a live query's snapshot,
 * a room's state: one write fanned out to 1,000 sockets) is not held back behind the others: corking
 * every socket held each snapshot until the last of 1,000 was made (fan-out p50 33 → 50 ms).
 *
 * The delay is the rest of the current turn, never a timer. `bufferedAmount` still counts what
 * is corked, so the backpressure check of the socket runtime sees the same bytes as before.
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** Sockets that had a message in this turn, and those corked for their second. */
const written = new Set<Socket>();
const corked = new Set<Socket>();
let scheduled = false;

function uncorkAll(): void {
  scheduled = false;
  written.clear();
  // Taken first: an uncork writes, and what that calls back could cork again (for the next turn).
  const sockets = [...corked];
  corked.clear();
  for (const socket of sockets) socket.uncork();
}

/** The TCP socket under a ws WebSocket (`_socket`: ws has no public accessor; absent before it connects). */
function tcpOf(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket | null })._socket ?? undefined;
}

/** Called before each message: the first of a turn goes at once, the later ones wait for the turn's end together. */
export function corkForTurn(socket: WebSocket): void {
  const tcp = tcpOf(socket);
  if (tcp === undefined || tcp.destroyed || corked.has(tcp)) return;
  if (!written.has(tcp)) written.add(tcp);
  else {
    tcp.cork();
    corked.add(tcp);
  }
  if (!scheduled) {
    scheduled = true;
    setImmediate(uncorkAll);
  }
}
