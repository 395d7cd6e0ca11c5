/**
 * `promise`, or a rejection with `message` once `ms` have passed, whichever comes first. The timer
 * does not keep the process alive and is cleared when the promise settles; the promise itself is
 * not cancelled (what it does goes on), only no longer waited for.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  const raced = Promise.race([promise, deadline]);
  // The caller handles the outcome; this branch only clears the timer and must not add an unhandled rejection.
  void raced.finally(() => clearTimeout(timer)).catch(() => undefined);
  return raced;
}
