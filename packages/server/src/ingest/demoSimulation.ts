/**
 * Demo mode: the simulator (packages/simulator) streams the demo devices NM-0001 … NM-0024 in real time
 * through the same MQTT path as real devices, with their demo secrets. SIMULATE=0 turns it off.
 * It never fails the server's start: without the demo devices it logs why and does not run.
 * The devices keep to the wall clock however slowly the start goes (connecting 24 devices on a busy
 * machine): seconds a little behind are caught up, a run far behind skips ahead (issue 18: the demo
 * fell behind real time and never caught up, and the grid read its data as late).
 */
import { serialsFor, startSimulation, type Simulation } from '@nemuri/simulator/index';

export const DEMO_DEVICE_COUNT = 24;
export const DEMO_WARM_UP_SECONDS = 360;

export interface DemoSimulation {
  readonly simulation: Simulation;
  stop(): Promise<void>;
}

export interface DemoSimulationOptions {
  brokerUrl: string;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
  devices?: number;
}

export async function startDemoSimulation({ brokerUrl, log, devices = DEMO_DEVICE_COUNT }: DemoSimulationOptions): Promise<DemoSimulation | null> {
  const serials = serialsFor(devices);
  let reported = 0;
  try {
    const simulation = await startSimulation({
      serials,
      broker: brokerUrl,
      speed: 1,
      live: true,
      // Six minutes sent at once: the estimator calls a resident asleep after five quiet minutes, so the
      // grid is right from the start instead of everyone awake for five minutes.
      warmUpSeconds: DEMO_WARM_UP_SECONDS,
      onError: (error) => {
        // A lost connection repeats every second until it is back: say it a few times, not for ever.
        if (reported++ < 5) log.warn({ err: error.message }, 'simulated device error');
      },
    });
    log.info({ devices: serials.length, broker: brokerUrl }, `simulated demo devices ${serials[0]} … ${serials.at(-1)} streaming (SIMULATE=0 turns them off)`);
    // Say when the machine was so busy that the devices had to skip seconds to stay on time.
    let skipped = 0;
    const watch = setInterval(() => {
      if (simulation.stats.skippedSeconds === skipped) return;
      log.warn(
        { skippedSeconds: simulation.stats.skippedSeconds - skipped, lagMs: simulation.stats.lagMs },
        'simulated demo devices fell behind the clock and skipped ahead',
      );
      skipped = simulation.stats.skippedSeconds;
    }, 10_000);
    watch.unref();
    return {
      simulation,
      stop: () => {
        clearInterval(watch);
        return simulation.stop();
      },
    };
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'the simulated demo devices could not start (are the demo devices registered?)');
    return null;
  }
}
