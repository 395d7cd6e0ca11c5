/**
 * A first-come, first-served lock for async code: PGlite's one connection is shared by queries,
 * transactions and exclusive sessions (see pglite.ts), and this decides whose turn it is.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Waits for every earlier holder, then resolves with the function that lets the next one in. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => turn);
    let released = false;
    return previous.then(() => () => {
      if (released) return;
      released = true;
      release();
    });
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
