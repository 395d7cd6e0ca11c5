/**
 * A logger for what starts before the app's own logger exists (the MQTT broker and the ingest
 * pipeline start first, so that devices are taken within seconds of a restart): lines are kept and
 * written to the app's logger once it is attached, in order; if the start fails first, to stderr.
 */
import type { PipelineLogger } from './pipeline.ts';

type Level = 'info' | 'warn' | 'error';

export class LateLogger implements PipelineLogger {
  #target: PipelineLogger | null = null;
  #held: { level: Level; object: object; message: string }[] = [];

  info(object: object, message: string): void {
    this.#write('info', object, message);
  }

  warn(object: object, message: string): void {
    this.#write('warn', object, message);
  }

  error(object: object, message: string): void {
    this.#write('error', object, message);
  }

  #write(level: Level, object: object, message: string): void {
    if (this.#target !== null) this.#target[level](object, message);
    // Bounded: a start that never attaches must not grow without end.
    else if (this.#held.length < 10_000) this.#held.push({ level, object, message });
  }

  /** From now on lines go to `target`, after the ones kept so far. */
  attach(target: PipelineLogger): void {
    this.#target = target;
    for (const { level, object, message } of this.#held) target[level](object, message);
    this.#held = [];
  }

  /** The start failed before a logger existed: what was kept goes to stderr. */
  drainToStderr(): void {
    for (const { level, object, message } of this.#held) console.error(JSON.stringify({ level, msg: message, ...object }));
    this.#held = [];
  }
}
