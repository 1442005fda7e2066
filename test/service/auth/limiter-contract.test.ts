/**
 * One contract test for every limiter (auth/limiter.ts): the SQL limiter on both databases and
 * the Redis limiter run the same cases — exact under concurrency from two handles, no deadlock
 * or slot leak when takes and give-backs race, a refusal takes nothing, windows and stale
 * give-backs, a repeated key, and a model-based property test against one in-memory model of
 * the contract. A backend whose server is absent is skipped (as helpers/backends.ts and
 * scale/support.ts decide: required under CI).
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Limit, Limiter, Ticket } from '../../../src/service/auth/limiter.js';
import { RedisLimiter } from '../../../src/service/auth/redis-limiter.js';
import { SqlLimiter } from '../../../src/service/auth/sql-limiter.js';
import type { Clock } from '../../../src/service/clock.js';
import { BACKENDS, type Backend } from '../helpers/backends.js';
import { ManualClock, uniqueName } from '../helpers/harness.js';
import { dropRedisNamespace, redisSkip, TEST_REDIS_URL, uniqueNamespace } from '../scale/support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MINUTE = 60 * 1000;

/** A counter as the backend holds it; undefined when it holds none. */
type Counter = { used: number; end: number } | undefined;

interface Opened {
  /** A limiter on the first (0) or the second (1) handle: as two server processes would have. */
  limiter(clock: Clock, handle: 0 | 1): Limiter;
  counter(key: string): Promise<Counter>;
  dispose(): Promise<void>;
}

interface LimiterCase {
  name: string;
  skip: string | undefined;
  /**
   * Whether a refusal names only the counters that were full. The SQL limiter increments every
   * counter before deciding, so a refusal may also name one that is full only of attempts being
   * refused at that moment (it errs on the side of refusing); Redis decides in one script.
   */
  exactRefusals: boolean;
  /** Property runs: each is a few dozen round trips, cheaper on the embedded database. */
  numRuns: number;
  open(): Promise<Opened>;
}

function sqlCase(backend: Backend): LimiterCase {
  return {
    name: `SqlLimiter on ${backend.name}`,
    skip: backend.skip,
    exactRefusals: false,
    numRuns: backend.name === 'pglite' ? 40 : 25,
    async open() {
      const database = await backend.open();
      const second = await database.connectAgain();
      return {
        limiter: (clock, handle) => new SqlLimiter(handle === 0 ? database.db : second, clock),
        async counter(key) {
          const [row] = await database.db.query<{ used: number; window_end: Date }>('SELECT used, window_end FROM auth_throttle WHERE key = $1', [key]);
          return row === undefined ? undefined : { used: row.used, end: row.window_end.getTime() };
        },
        dispose: () => database.dispose(),
      };
    },
  };
}

const redisCase: LimiterCase = {
  name: 'RedisLimiter',
  skip: redisSkip,
  exactRefusals: true,
  numRuns: 60,
  async open() {
    const namespace = uniqueNamespace();
    const prefix = `${namespace}:`;
    const handles = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)] as const;
    return {
      limiter: (clock, handle) => new RedisLimiter(handles[handle], prefix, clock),
      async counter(key) {
        const hash = await handles[0].hgetall(`${prefix}limit:${key}`);
        return hash['used'] === undefined ? undefined : { used: Number(hash['used']), end: Number(hash['end']) };
      },
      async dispose() {
        for (const handle of handles) handle.disconnect();
        await dropRedisNamespace(namespace);
      },
    };
  },
};

const CASES: LimiterCase[] = [...BACKENDS.map(sqlCase), redisCase];

describe.each(CASES)('$name', (backend) => {
  let opened: Opened;
  beforeAll(async () => {
    if (backend.skip === undefined) opened = await backend.open();
  });
  afterAll(async () => {
    await opened?.dispose();
  });
  const used = async (key: string) => (await opened.counter(key))?.used;
  const run = test.skipIf(backend.skip !== undefined);

  run('300 simultaneous takes on two handles with 10 slots: exactly 10 allowed', async () => {
    const clock = new ManualClock();
    const [a, b] = [opened.limiter(clock, 0), opened.limiter(clock, 1)];
    const account: Limit = { key: uniqueName('account:'), max: 10, windowMs: 15 * MINUTE };
    const address: Limit = { key: uniqueName('address:'), max: 100, windowMs: 15 * MINUTE };
    const tickets = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).take([address, account])));
    expect(tickets.filter((t) => t.allowed).length, 'exactly the 10 free slots are taken').toBe(10);
    const refused = tickets.filter((t) => !t.allowed);
    expect(refused.every((t) => t.refused.includes(account.key)), 'every refusal names the account counter').toBe(true);
    if (backend.exactRefusals) expect(refused.every((t) => t.refused.length === 1), 'and it alone').toBe(true);
    expect(refused.every((t) => t.retryAfterSeconds === 15 * 60), 'with the rest of the window').toBe(true);
    expect(await used(account.key), 'refusals took nothing (or gave it back): the account counter holds 10').toBe(10);
    expect(await used(address.key), 'and the address counter only the 10 allowed').toBe(10);
  });

  run('takes and give-backs racing on shared counters neither deadlock nor leak slots', async () => {
    const clock = new ManualClock();
    const limiters = [opened.limiter(clock, 0), opened.limiter(clock, 1)];
    const counter = (name: string): Limit => ({ key: uniqueName(`race-${name}:`), max: 50, windowMs: MINUTE });
    const x = counter('x');
    const y = counter('y');
    const z = counter('z');
    // Every order of asking; the limiter must lock in one order whatever it is asked.
    const sets: Limit[][] = [[x, y], [z, y], [z, x], [y, x, z]];
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const ticket = await limiters[i % 2]!.take(sets[i % 4] ?? []);
        if (ticket.allowed) await ticket.giveBack();
        return ticket.allowed;
      }),
    );
    expect(outcomes.some((allowed) => allowed), 'attempts got through').toBe(true);
    for (const { key } of [x, y, z]) expect(await used(key), `${key} is back to 0`).toBe(0);
  });

  run('a refusal by one counter leaves the other untouched; giving back frees a slot; clear empties', async () => {
    const limiter = opened.limiter(new ManualClock(), 0);
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

  run('windows: Retry-After counts down, a new window starts afresh, a stale give-back is ignored', async () => {
    const clock = new ManualClock();
    const limiter = opened.limiter(clock, 0);
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

  run('the same key twice in one attempt takes one slot, with the stricter limit', async () => {
    const limiter = opened.limiter(new ManualClock(), 0);
    const key = uniqueName('twice:');
    const ticket = await limiter.take([{ key, max: 5, windowMs: MINUTE }, { key, max: 1, windowMs: MINUTE }]);
    expect([ticket.allowed, await used(key)], 'one slot').toEqual([true, 1]);
    expect((await limiter.take([{ key, max: 5, windowMs: MINUTE }, { key, max: 1, windowMs: MINUTE }])).allowed, 'max 1 applies').toBe(false);
  });

  run('property: any sequence of takes, give-backs and clock moves behaves like the model', async () => {
    type Command = { kind: 'take'; keys: number[] } | { kind: 'giveBack'; ticket: number; clear: boolean } | { kind: 'advance'; ms: number };
    const command: fc.Arbitrary<Command> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('take' as const), keys: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('giveBack' as const), ticket: fc.nat(), clear: fc.boolean() }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3 * MINUTE }) }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
        const clock = new ManualClock();
        const limiter = opened.limiter(clock, 0);
        const prefix = uniqueName('model');
        const limits: Limit[] = [
          { key: `${prefix}:a`, max: 1, windowMs: 2 * MINUTE },
          { key: `${prefix}:b`, max: 2, windowMs: 5 * MINUTE },
          { key: `${prefix}:c`, max: 3, windowMs: MINUTE },
        ];
        // The model of limiter.ts: per key, slots used and the window's end.
        const model = new Map<string, { used: number; end: number }>();
        const tickets: Array<{ real: Ticket; held: Array<{ key: string; end: number }>; spent: boolean }> = [];
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
        const actual: Record<string, { used: number; end: number }> = {};
        for (const l of limits) {
          const held = await opened.counter(l.key);
          if (held !== undefined) actual[l.key] = held;
        }
        expect(actual, 'every counter as the model has it').toEqual(Object.fromEntries(model));
      }),
      { numRuns: backend.numRuns },
    );
  });
});
