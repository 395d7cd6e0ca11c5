/**
 * The fair-sharing scenario (security issue, finding 4), shared by the fairness test and
 * `bench/fairness.bench.ts`: tenant A, registered through /register like any customer, runs the
 * heaviest load it is allowed — concurrent 500-write commits to its own room, report PDFs of a
 * whole month and live subscriptions to what it writes — while tenant B, another registration,
 * reads its own room record again and again. What counts is B's read latency. Every loop is bounded
 * in count and time and stops by itself.
 */
import { MAX_WRITES_PER_COMMIT } from '@nemuri/shared/documents/transaction';
import { BrowserClient } from '../testing/browserClient.ts';
import { LiveSocket } from '../live/testing.ts';

export interface Tenant {
  client: BrowserClient;
  domainId: string;
  roomId: string;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface FairnessResult {
  /** B's reads of its own room. */
  reads: LatencySummary;
  /** B's reads that did not answer 200. */
  failedReads: number;
  /**
   * How many of A's commits finished while each of B's reads waited: what B's read waited behind,
   * counted rather than timed, so that a loaded machine does not change it.
   */
  commitsDuringRead: LatencySummary;
  commits: { ok: number; refused: number; other: number };
  pdfs: { ok: number; refused: number; other: number };
  liveMessages: number;
}

export interface FairnessOptions {
  /** How long A's load runs while B reads. */
  durationMs: number;
  /** A's concurrent commit loops (more than the limiter lets through, to show it holds). */
  commitLoops?: number;
  /** A's concurrent PDF loops. */
  pdfLoops?: number;
  /** A's live sockets, each subscribed to A's room and its sleeps. */
  liveSockets?: number;
  /** Pause between two of B's reads. */
  readEveryMs?: number;
  /** Writes in each of A's commits (default: the most allowed). */
  writesPerCommit?: number;
}

const PASSWORD = 'correct horse battery staple';
const MONTH = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);

/** A tenant of its own: a new facility registered by its owner (level 5), with one room. */
export async function registerTenant(baseUrl: string, label: string, from: string): Promise<Tenant> {
  const client = new BrowserClient(baseUrl, { from });
  const reply = await client.post('/api/auth/registration/domain', {
    name: `${label} オーナー`,
    email: `${label}@fairness.example.com`,
    password: PASSWORD,
    domainName: `${label} 苑`,
    domainKind: 'facility',
  });
  if (reply.status !== 200) throw new Error(`registering ${label} answered ${reply.status}: ${reply.text}`);
  const { domainId } = reply.body as { domainId: string };
  const roomId = `${label}-room`;
  const room = await client.send(
    'PUT',
    `/api/documents/rooms/${roomId}`,
    JSON.stringify({ data: { domainId, name: `${label} 101号室`, residentName: '入居者' } }),
    { 'content-type': 'application/json' },
  );
  if (room.status !== 200) throw new Error(`creating ${label}'s room answered ${room.status}: ${room.text}`);
  return { client, domainId, roomId };
}

/** A month of nights with per-minute epochs in A's room, so that its PDFs are as heavy as real ones. */
export async function fillMonth(tenant: Tenant): Promise<void> {
  const epochs = Array.from({ length: 480 }, (_, i) => ({
    state: i % 7 === 0 ? 'awake' : 'light',
    respirationRate: 14 + (i % 5),
    heartRate: 60 + (i % 9),
    activity: (i % 4) / 4,
  }));
  const writes = MONTH.map((day) => ({
    op: 'set',
    path: `rooms/${tenant.roomId}/sleeps/${day}`,
    data: {
      source: 'fairness',
      epochStart: `${day}T22:00:00+09:00`,
      epochs,
      totalSleepMin: 400,
      sleepEfficiency: 88,
      respirationRate: { avg: 15, min: 11, max: 19 },
      heartRate: { avg: 62, min: 50, max: 80 },
    },
  }));
  const reply = await tenant.client.post('/api/documents/commit', { reads: [], writes });
  if (reply.status !== 200) throw new Error(`filling the month answered ${reply.status}: ${reply.text}`);
}

function summary(values: number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers of one kind of request: 200, 429 (the limiter said no), anything else. */
function tally(): { ok: number; refused: number; other: number; count(status: number): void } {
  return {
    ok: 0,
    refused: 0,
    other: 0,
    count(status) {
      if (status === 200) this.ok++;
      else if (status === 429) this.refused++;
      else this.other++;
    },
  };
}

export async function runFairness(baseUrl: string, a: Tenant, b: Tenant, options: FairnessOptions): Promise<FairnessResult> {
  const { durationMs, commitLoops = 4, pdfLoops = 3, liveSockets = 4, readEveryMs = 10, writesPerCommit = MAX_WRITES_PER_COMMIT } = options;
  const until = performance.now() + durationMs;
  const commits = tally();
  const pdfs = tally();
  const latencies: number[] = [];
  const readSpans: [number, number][] = [];
  const commitsDone: number[] = [];
  let failedReads = 0;
  let round = 0;

  const sockets = await Promise.all(Array.from({ length: liveSockets }, () => LiveSocket.open(baseUrl, a.client.cookieHeader)));
  sockets.forEach((socket, index) => {
    socket.subscribe(`room-${index}`, { document: `rooms/${a.roomId}` });
    socket.subscribe(`sleeps-${index}`, { query: { collection: `rooms/${a.roomId}/sleeps`, limit: 50 } });
  });

  const commitLoop = async (loop: number) => {
    while (performance.now() < until) {
      const n = round++;
      // 500 updates of A's own room, each a little different, as in the finding (1,000 then).
      const writes = Array.from({ length: writesPerCommit }, (_, i) => ({
        op: 'update',
        path: `rooms/${a.roomId}`,
        data: { residentNote: `負荷 ${loop}-${n}-${i}` },
      }));
      const reply = await a.client.post('/api/documents/commit', { reads: [], writes });
      commits.count(reply.status);
      if (reply.status === 200) commitsDone.push(performance.now());
      // A refused client waits a little, as the Retry-After asks, and tries again.
      if (reply.status === 429) await sleep(50);
    }
  };
  const pdfLoop = async () => {
    while (performance.now() < until) {
      const reply = await a.client.get(`/api/reports/pdf?rooms=${a.roomId}&from=${MONTH[0]}&to=${MONTH[MONTH.length - 1]}`);
      pdfs.count(reply.status);
      if (reply.status === 429) await sleep(50);
    }
  };
  const readLoop = async () => {
    // Let A's load build up first.
    await sleep(Math.min(500, durationMs / 10));
    while (performance.now() < until) {
      const started = performance.now();
      const reply = await b.client.get(`/api/documents/rooms/${b.roomId}`);
      const ended = performance.now();
      latencies.push(ended - started);
      readSpans.push([started, ended]);
      if (reply.status !== 200) failedReads++;
      await sleep(readEveryMs);
    }
  };

  try {
    await Promise.all([...Array.from({ length: commitLoops }, (_, i) => commitLoop(i)), ...Array.from({ length: pdfLoops }, () => pdfLoop()), readLoop()]);
  } finally {
    for (const socket of sockets) socket.close();
  }
  const { ok, refused, other } = commits;
  return {
    reads: summary(latencies),
    failedReads,
    commitsDuringRead: summary(readSpans.map(([from, to]) => commitsDone.filter((at) => at > from && at <= to).length)),
    commits: { ok, refused, other },
    pdfs: { ok: pdfs.ok, refused: pdfs.refused, other: pdfs.other },
    liveMessages: sockets.reduce((sum, socket) => sum + socket.messages.length, 0),
  };
}
