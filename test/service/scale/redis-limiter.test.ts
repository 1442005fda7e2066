/**
 * The Redis limiter against the contract of auth/limiter.ts, as the SQL limiter is tested in
 * test/service/auth/limiter.test.ts: exact under concurrency from two connections, refusals take
 * nothing, windows and stale give-backs, and a model-based property test with the same model.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Limit, Ticket } from '../../../src/service/auth/limiter.js';
import { RedisLimiter } from '../../../src/service/auth/redis-limiter.js';
import { ManualClock, uniqueName } from '../helpers/harness.js';
import { dropRedisNamespace, redisSkip, TEST_REDIS_URL, uniqueNamespace } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MINUTE = 60 * 1000;

describe.skipIf(redisSkip !== undefined)('RedisLimiter', () => {
  const namespace = uniqueNamespace();
  const prefix = `${namespace}:`;
  let one: Redis;
  let two: Redis;
  beforeAll(() => {
    one = new Redis(TEST_REDIS_URL);
    two = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    one?.disconnect();
    two?.disconnect();
    await dropRedisNamespace(namespace);
  });
  const state = async (key: string) => {
    const hash = await one.hgetall(`${prefix}limit:${key}`);
    return hash['used'] === undefined ? undefined : { used: Number(hash['used']), end: Number(hash['end']) };
  };

  test('300 simultaneous takes on two connections with 10 slots: exactly 10 allowed', async () => {
    const clock = new ManualClock();
    const a = new RedisLimiter(one, prefix, clock);
    const b = new RedisLimiter(two, prefix, clock);
    const account: Limit = { key: uniqueName('account:'), max: 10, windowMs: 15 * MINUTE };
    const address: Limit = { key: uniqueName('address:'), max: 100, windowMs: 15 * MINUTE };
    const tickets = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b).take([address, account])));
    expect(tickets.filter((t) => t.allowed).length, 'exactly the 10 free slots are taken').toBe(10);
    const refused = tickets.filter((t) => !t.allowed);
    expect(refused.every((t) => t.refused.length === 1 && t.refused[0] === account.key), 'every refusal names the account counter alone').toBe(true);
    expect(refused.every((t) => t.retryAfterSeconds === 15 * 60), 'with the rest of the window').toBe(true);
    expect((await state(account.key))?.used, 'the account counter holds 10').toBe(10);
    expect((await state(address.key))?.used, 'the address counter only the 10 allowed').toBe(10);
  });

  test('a refusal by one counter leaves the other untouched; giving back frees a slot; clear empties', async () => {
    const limiter = new RedisLimiter(one, prefix, new ManualClock());
    const small: Limit = { key: uniqueName('small:'), max: 1, windowMs: MINUTE };
    const large: Limit = { key: uniqueName('large:'), max: 5, windowMs: MINUTE };
    const first = await limiter.take([small, large]);
    expect(first.allowed, 'the first attempt is allowed').toBe(true);
    const second = await limiter.take([small, large]);
    expect([second.allowed, second.refused], 'the second is refused by the small counter').toEqual([false, [small.key]]);
    expect([(await state(small.key))?.used, (await state(large.key))?.used], 'the refusal took nothing').toEqual([1, 1]);
    await first.giveBack();
    expect([(await state(small.key))?.used, (await state(large.key))?.used], 'a success gives both slots back').toEqual([0, 0]);
    const again = await limiter.take([large]);
    await again.giveBack([large.key]);
    expect((await state(large.key))?.used, 'clear empties a counter').toBe(0);
  });

  test('windows: Retry-After counts down, a new window starts afresh, a stale give-back is ignored', async () => {
    const clock = new ManualClock();
    const limiter = new RedisLimiter(one, prefix, clock);
    const limit: Limit = { key: uniqueName('window:'), max: 1, windowMs: 10 * MINUTE };
    const held = await limiter.take([limit]);
    clock.advance(4 * MINUTE + 500);
    expect((await limiter.take([limit])).retryAfterSeconds, 'Retry-After is the rest of the window, rounded up').toBe(6 * 60);
    clock.advance(6 * MINUTE);
    expect((await limiter.take([limit])).allowed, 'a new window has a free slot').toBe(true);
    await held.giveBack();
    expect((await state(limit.key))?.used, 'the old window’s slot is not given back to the new one').toBe(1);
  });

  test('property: any sequence of takes, give-backs and clock moves behaves like the model', async () => {
    type Command = { kind: 'take'; keys: number[] } | { kind: 'giveBack'; ticket: number; clear: boolean } | { kind: 'advance'; ms: number };
    const command: fc.Arbitrary<Command> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('take' as const), keys: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('giveBack' as const), ticket: fc.nat(), clear: fc.boolean() }), weight: 2 },
      { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3 * MINUTE }) }), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 25 }), async (commands) => {
        const clock = new ManualClock();
        const limiter = new RedisLimiter(one, prefix, clock);
        const name = uniqueName('model');
        const limits: Limit[] = [
          { key: `${name}:a`, max: 1, windowMs: 2 * MINUTE },
          { key: `${name}:b`, max: 2, windowMs: 5 * MINUTE },
          { key: `${name}:c`, max: 3, windowMs: MINUTE },
        ];
        // The model of limiter.ts (the same as the SQL limiter's test): per key, slots used and the window's end.
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
          const s = await state(l.key);
          if (s !== undefined) actual[l.key] = s;
        }
        expect(actual, 'every counter as the model has it').toEqual(Object.fromEntries(model));
      }),
      { numRuns: 60 },
    );
  });
});
