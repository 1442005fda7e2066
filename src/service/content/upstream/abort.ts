/**
 * Waiting on shared work without cancelling it: the fetch's retries (http.ts) and the single
 * flight of fetch → parse → save (loader.ts) run on for their other waiters, and for the store,
 * when one caller gives up.
 */

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts; the promise runs on, its outcome ignored. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
