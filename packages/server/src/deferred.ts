/**
 * A promise with its resolve and reject in hand. Its rejection is marked handled: a failure nobody
 * waits for (startServer's steps, a staging write whose callers are gone) is reported by its owner,
 * never as an unhandled rejection.
 */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
