/**
 * At most one call in flight per key: concurrent callers of `run(key, fn)` share the first caller's
 * promise. The entry is dropped as soon as that promise settles, success or failure, so results are
 * never cached here (that is the article store's job) and a failure is retried by the next caller.
 */
export class SingleFlight<K, V> {
  readonly #inFlight = new Map<K, Promise<V>>();

  run(key: K, fn: () => Promise<V>): Promise<V> {
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running;
    // fn may throw synchronously; treat that like a rejection so the entry is still cleaned up.
    const promise = Promise.resolve()
      .then(fn)
      .finally(() => {
        if (this.#inFlight.get(key) === promise) this.#inFlight.delete(key);
      });
    this.#inFlight.set(key, promise);
    return promise;
  }

  /** Keys with a call in flight right now. */
  get size(): number {
    return this.#inFlight.size;
  }
}
