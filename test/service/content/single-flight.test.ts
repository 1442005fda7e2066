import { describe, expect, it } from 'vitest';
import { SingleFlight } from '../../../src/service/content/single-flight.js';

/** A promise the test settles by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SingleFlight', () => {
  it('runs one call per key while it is in flight; every caller gets its result', async () => {
    const flight = new SingleFlight<string, object>();
    const gate = deferred<object>();
    let calls = 0;
    const fn = (): Promise<object> => {
      calls++;
      return gate.promise;
    };
    const callers = Array.from({ length: 20 }, () => flight.run('a', fn));
    expect(flight.size, 'one key in flight').toBe(1);
    const result = { ok: true };
    gate.resolve(result);
    const results = await Promise.all(callers);
    expect(calls, 'the function ran once').toBe(1);
    expect(results.every((r) => r === result), 'all callers share the same result object').toBe(true);
    expect(flight.size, 'entry removed once settled').toBe(0);
  });

  it('keeps keys apart', async () => {
    const flight = new SingleFlight<string, string>();
    let calls = 0;
    const [a, b] = await Promise.all([
      flight.run('a', async () => `${++calls}a`),
      flight.run('b', async () => `${++calls}b`),
    ]);
    expect(calls, 'one call per key').toBe(2);
    expect([a, b], 'each key its own result').toEqual(['1a', '2b']);
  });

  it('calls again after success: it shares calls, it does not cache results', async () => {
    const flight = new SingleFlight<string, number>();
    let calls = 0;
    expect(await flight.run('k', async () => ++calls), 'first call').toBe(1);
    expect(await flight.run('k', async () => ++calls), 'second call runs again').toBe(2);
  });

  it('shares a failure with every concurrent caller, then lets the next call retry', async () => {
    const flight = new SingleFlight<string, string>();
    const gate = deferred<string>();
    let calls = 0;
    const callers = Array.from({ length: 5 }, () =>
      flight.run('k', () => {
        calls++;
        return gate.promise;
      }),
    );
    gate.reject(new Error('upstream down'));
    const outcomes = await Promise.allSettled(callers);
    expect(outcomes.every((o) => o.status === 'rejected' && (o.reason as Error).message === 'upstream down'), 'all callers see the failure').toBe(true);
    expect(calls, 'one call for all five').toBe(1);
    expect(flight.size, 'failed entry removed').toBe(0);
    expect(await flight.run('k', async () => 'recovered'), 'next call runs afresh').toBe('recovered');
  });

  it('turns a synchronous throw into a rejection and cleans up', async () => {
    const flight = new SingleFlight<string, string>();
    await expect(
      flight.run('k', () => {
        throw new Error('sync');
      }),
      'rejects',
    ).rejects.toThrow('sync');
    expect(flight.size, 'no entry left behind').toBe(0);
  });
});
