/**
 * The SQL limiter on its own, on both databases: the atomic decision under concurrency (one
 * handle and two), what a refusal and a give-back do to the counters, windows, and a model-based
 * property test against a plain in-memory model of the contract in limiter.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Limit } from '../../../src/service/auth/limiter.js';
import { SqlLimiter } from '../../../src/service/auth/sql-limiter.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { ManualClock, uniqueName } from '../helpers/harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MINUTE = 60 * 1000;

describe.each(BACKENDS)('SqlLimiter on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    if (backend.skip === undefined) database = await backend.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });
  const used = async (key: string) =>
    (await database.db.query<{ used: number }>('SELECT used FROM auth_throttle WHERE key = $1', [key]))[0]?.used;

  test.skipIf(backend.skip !== undefined)('300 simultaneous takes on two handles with 10 slots: exactly 10 allowed', async () => {
    const clock = new ManualClock();
    const a = new SqlLimiter(database.db, clock);
    const b = new SqlLimiter(await database.connectAgain(), clock);
    const account: Limit = { key: uniqueName('account:'), max: 10, windowMs: 15 * MINUTE };
    const address: Limit = { key: uniqueName('address:'), max: 100, windowMs: 15 * MINUTE };
    const tickets = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).take([address, account])));
    expect(tickets.filter((t) => t.allowed).length, 'exactly the 10 free slots are taken').toBe(10);
    const refused = tickets.filter((t) => !t.allowed);
    // The address counter may be named too: increments of attempts still being refused count
    // until they are given back, which errs on the side of refusing.
    expect(refused.every((t) => t.refused.includes(account.key)), 'every refusal names the account counter').toBe(true);
    expect(refused.every((t) => t.retryAfterSeconds === 15 * 60), 'with the rest of the window').toBe(true);
    expect(await used(account.key), 'refusals gave their increments back: the account counter holds 10').toBe(10);
    expect(await used(address.key), 'and the address counter only the 10 allowed').toBe(10);
  });

  test.skipIf(backend.skip !== undefined)('takes and give-backs racing on shared counters neither deadlock nor leak slots', async () => {
    const clock = new ManualClock();
    const limiters = [new SqlLimiter(database.db, clock), new SqlLimiter(await database.connectAgain(), clock)];
    const counter = (name: string): Limit => ({ key: uniqueName(`race-${name}:`), max: 50, windowMs: MINUTE });
    const x = counter('x');
    const y = counter('y');
    const z = counter('z');
    // Every order of asking; the limiter must lock in one order whatever it is asked.
    const sets: Limit[][] = [[x, y], [z, y], [z, x], [y, x, z]];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const ticket = await (limiters[i % 2] as SqlLimiter).take(sets[i % 4] ?? []);
        if (ticket.allowed) await ticket.giveBack();
        return ticket.allowed;
      }),
    );
    expect(outcomes.some((allowed) => allowed), 'attempts got through').toBe(true);
    for (const { key } of [x, y, z]) expect(await used(key), `${key} is back to 0`).toBe(0);
  });

  test.skipIf(backend.skip !== undefined)('a refusal by one counter leaves the other untouched; giving back frees a slot', async () => {
    const clock = new ManualClock();
    const limiter = new SqlLimiter(database.db, clock);
    const small: Limit = { key: uniqueName('small:'), max: 1, windowMs: MINUTE };
    const large: Limit = { key: uniqueName('large:'), max: 5, windowMs: MINUTE };
    const first = await limiter.take([small, large]);
    expect(first.allowed, 'the first attempt is allowed').toBe(true);
    const second = await limiter.take([small, large]);
    expect([second.allowed, second.refused], 'the second is refused by the small counter').toEqual([false, [small.key]]);
    expect([await used(small.key), await used(large.key)], 'the refusal took nothing').toEqual([1, 1]);
    await first.giveBack();
    expect([await used(small.key), await used(large.key)], 'a success gives both slots back').toEqual([0, 0]);
    expect((await limiter.take([small, large])).allowed, 'so the next attempt is allowed').toBe(true);
    const again = await limiter.take([large]);
    await again.giveBack([large.key]);
    expect(await used(large.key), 'clear empties a counter whatever it held').toBe(0);
  });

  test.skipIf(backend.skip !== undefined)('windows: Retry-After counts down, a new window starts afresh, a stale give-back is ignored', async () => {
    const clock = new ManualClock();
    const limiter = new SqlLimiter(database.db, clock);
    const limit: Limit = { key: uniqueName('window:'), max: 1, windowMs: 10 * MINUTE };
    const held = await limiter.take([limit]);
    clock.advance(4 * MINUTE + 500);
    expect((await limiter.take([limit])).retryAfterSeconds, 'Retry-After is the rest of the window, rounded up').toBe(6 * 60);
    clock.advance(6 * MINUTE);
    const fresh = await limiter.take([limit]);
    expect(fresh.allowed, 'a new window has a free slot').toBe(true);
    await held.giveBack();
    expect(await used(limit.key), 'the slot from the old window is not given back to the new one').toBe(1);
    expect((await limiter.take([{ ...limit, windowMs: MINUTE }])).allowed, 'a counter keeps the window it started with').toBe(false);
  });

  test.skipIf(backend.skip !== undefined)('the same key twice in one attempt takes one slot, with the stricter limit', async () => {
    const limiter = new SqlLimiter(database.db, new ManualClock());
    const key = uniqueName('twice:');
    const ticket = await limiter.take([{ key, max: 5, windowMs: MINUTE }, { key, max: 1, windowMs: MINUTE }]);
    expect([ticket.allowed, await used(key)], 'one slot').toEqual([true, 1]);
    expect((await limiter.take([{ key, max: 5, windowMs: MINUTE }, { key, max: 1, windowMs: MINUTE }])).allowed, 'max 1 applies').toBe(false);
  });

  test.skipIf(backend.skip !== undefined)('property: any sequence of takes, give-backs and clock moves behaves like the model', async () => {
    type Command = { kind: 'take'; keys: number[] } | { kind: 'giveBack'; ticket: number; clear: boolean } | { kind: 'advance'; ms: number };
    const command: fc.Arbitrary<Command> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('take' as const), keys: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('giveBack' as const), ticket: fc.nat(), clear: fc.boolean() }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3 * MINUTE }) }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
        const clock = new ManualClock();
        const limiter = new SqlLimiter(database.db, clock);
        const prefix = uniqueName('model');
        const limits: Limit[] = [
          { key: `${prefix}:a`, max: 1, windowMs: 2 * MINUTE },
          { key: `${prefix}:b`, max: 2, windowMs: 5 * MINUTE },
          { key: `${prefix}:c`, max: 3, windowMs: MINUTE },
        ];
        // The model: per key, slots used and the window's end.
        const model = new Map<string, { used: number; end: number }>();
        const tickets: Array<{ real: Awaited<ReturnType<SqlLimiter['take']>>; held: Array<{ key: string; end: number }>; spent: boolean }> = [];
        for (const c of commands) {
          const now = clock.now().getTime();
          if (c.kind === 'advance') {
            clock.advance(c.ms);
          } else if (c.kind === 'take') {
            const chosen = c.keys.map((i) => limits[i] as Limit);
            const next = chosen.map((l) => {
              const m = model.get(l.key);
              return m === undefined || m.end <= now ? { key: l.key, used: 1, end: now + l.windowMs } : { key: l.key, used: m.used + 1, end: m.end };
            });
            const allowed = next.every((n, i) => n.used <= (chosen[i] as Limit).max);
            for (const n of next) model.set(n.key, { used: allowed ? n.used : n.used - 1, end: n.end });
            const real = await limiter.take(chosen);
            expect(real.allowed, 'allowed as in the model').toBe(allowed);
            tickets.push({ real, held: allowed ? next.map((n) => ({ key: n.key, end: n.end })) : [], spent: false });
          } else {
            const t = tickets[c.ticket % Math.max(tickets.length, 1)];
            if (t === undefined || t.spent) continue;
            t.spent = true;
            const clear = c.clear && t.held.length > 0 ? [t.held[0]?.key as string] : [];
            for (const h of t.held) {
              const m = model.get(h.key);
              if (m === undefined) continue;
              if (clear.includes(h.key)) m.used = 0;
              else if (m.end === h.end) m.used = Math.max(m.used - 1, 0);
            }
            await t.real.giveBack(clear);
          }
        }
        const rows = await database.db.query<{ key: string; used: number; window_end: Date }>(
          'SELECT key, used, window_end FROM auth_throttle WHERE key LIKE $1',
          [`${prefix}:%`],
        );
        const actual = Object.fromEntries(rows.map((r) => [r.key, { used: r.used, end: r.window_end.getTime() }]));
        expect(actual, 'every counter as the model has it').toEqual(Object.fromEntries(model));
      }),
      { numRuns: backend.name === 'pglite' ? 40 : 25 },
    );
  });
});
