// A CPU quota for one process, through a Linux control group of its own: the process (and every
// thread it starts) gets at most `cores` of a core's time per 100 ms period. The processes bench
// uses it to give each server process a core's worth of its own on a machine with fewer cores than
// processes plus load generator, broker and database — so that what is measured is how the
// processes scale, not how the machine's two cores are shared. cgroup v2 (`cpu.max`) where the
// unified hierarchy has the cpu controller, else cgroup v1 (`cpu.cfs_quota_us`). Needs write
// access to /sys/fs/cgroup (root in the sandbox); the constructor says so when it has none.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_US = 100_000;
const V2_ROOT = '/sys/fs/cgroup';
const V1_CPU_ROOT = '/sys/fs/cgroup/cpu';

function cgroupV2HasCpu(): boolean {
  try {
    return readFileSync(join(V2_ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu');
  } catch {
    return false;
  }
}

export class CpuQuota {
  readonly #dir: string;

  /** A new group named `name` allowing `cores` (e.g. 0.25) of a core; throws, naming the cause, where that cannot be made. */
  constructor(name: string, cores: number) {
    if (!(cores > 0)) throw new Error(`a CPU quota must be above 0 cores (got ${cores})`);
    const quota = Math.round(cores * PERIOD_US);
    try {
      if (cgroupV2HasCpu()) {
        this.#dir = join(V2_ROOT, name);
        mkdirSync(this.#dir);
        writeFileSync(join(this.#dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
      } else if (existsSync(join(V1_CPU_ROOT, 'cpu.cfs_quota_us'))) {
        this.#dir = join(V1_CPU_ROOT, name);
        mkdirSync(this.#dir);
        writeFileSync(join(this.#dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(join(this.#dir, 'cpu.cfs_quota_us'), String(quota));
      } else {
        throw new Error('no cpu controller under /sys/fs/cgroup');
      }
    } catch (error) {
      throw new Error(`--cpu-quota needs a writable cpu control group (run as root on Linux): ${(error as Error).message}`, { cause: error });
    }
  }

  /** Moves the process with this pid (all its threads) into the group. */
  add(pid: number): void {
    writeFileSync(join(this.#dir, 'cgroup.procs'), String(pid));
  }

  /** Removes the group; its processes must have exited. */
  remove(): void {
    try {
      rmdirSync(this.#dir);
    } catch {
      // A process still in it (a failed run): the group is left, named after the run, and empty once that process ends.
    }
  }
}
