// What the ingest benches measure the same way: percentiles, a thread's event-loop load, the
// machine's busy share and load average, and the bench devices' registration.
import { cpus } from 'node:os';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { hashDeviceSecret } from '../src/devices/deviceSecret.ts';
import type { DocumentStore } from '../src/documents/store.ts';
import { SYSTEM_PRINCIPAL } from '../src/documents/systemPrincipal.ts';

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

export interface ThreadLoad {
  /** Event-loop utilisation over the streaming phase: 1 = the thread never waited. */
  utilization: number;
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
}

/** Event-loop delay and utilisation of the calling thread from `mark()` on. */
export function threadLoad(): { mark(): void; read(): ThreadLoad } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let since: EventLoopUtilization = performance.eventLoopUtilization();
  return {
    mark() {
      delay.reset();
      since = performance.eventLoopUtilization();
    },
    read() {
      return {
        utilization: performance.eventLoopUtilization(since).utilization,
        delayP50Ms: delay.percentile(50) / 1e6,
        delayP99Ms: delay.percentile(99) / 1e6,
        delayMaxMs: delay.max / 1e6,
      };
    },
  };
}

export const loadLine = (load: ThreadLoad): string =>
  `event loop busy ${(load.utilization * 100).toFixed(0)} %, delay p50 ${ms(load.delayP50Ms)}, p99 ${ms(load.delayP99Ms)}, max ${ms(load.delayMaxMs)}`;

/** Busy share of all cores since `before` (every process on the machine, not only this one). */
export function machineBusy(before: ReturnType<typeof cpus>): number {
  let busy = 0;
  let total = 0;
  cpus().forEach((cpu, i) => {
    const was = before[i]!.times;
    const idle = cpu.times.idle - was.idle;
    const all = cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq + cpu.times.idle - (was.user + was.nice + was.sys + was.irq + was.idle);
    busy += all - idle;
    total += all;
  });
  return total > 0 ? busy / total : Number.NaN;
}

/**
 * Registers the bench devices (in facility A of the demo data, all with one secret): a few hundred
 * records a transaction, since one transaction per device took 30–45 s for 3,000 on a busy machine.
 */
export async function registerBenchDevices(documents: DocumentStore, serials: readonly string[], secret: string): Promise<void> {
  const credentialHash = hashDeviceSecret(secret);
  for (let i = 0; i < serials.length; i += 500) {
    const writes = serials.slice(i, i + 500).map((serial) => ({
      op: 'set',
      path: `devices/${serial}`,
      data: { deviceTypeId: 'nemuri-pad', domainId: DEMO_DOMAINS.facilityA, status: 'in_use', credentialHash },
    }));
    await documents.commit(SYSTEM_PRINCIPAL, { reads: [], writes });
  }
}
