import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { distinctLimits, makeTicket, retryAfterSeconds, type Held, type Limit, type Limiter, type Ticket } from './limiter.js';

/**
 * The limiter contract (limiter.ts) on Redis: each counter a hash {used, end} that expires with
 * its window. Redis runs a script without interleaving any other command, so checking every
 * counter and taking a slot on each is one atomic step for all processes on that Redis, as the
 * single SQL statement is in sql-limiter.ts. A refused attempt takes nothing (the SQL limiter
 * adds then takes back; here the check simply comes first), and like there it starts afresh the
 * windows of its counters that had ended. The same model (test/service/scale) checks both.
 *
 * Time is the caller's clock (ARGV), not Redis's, so that both implementations agree with the
 * injected clock in tests, and a window's end is the same instant in Redis and in Retry-After.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local used, ends, fresh, refused = {}, {}, {}, {}
for i, key in ipairs(KEYS) do
  local state = redis.call('HMGET', key, 'used', 'end')
  local u, e = tonumber(state[1]), tonumber(state[2])
  if u == nil or e == nil or e <= now then u = 0; e = now + tonumber(ARGV[2 * i + 1]); fresh[i] = true end
  used[i] = u; ends[i] = e
  if u + 1 > tonumber(ARGV[2 * i]) then refused[#refused + 1] = i end
end
local out = {}
if #refused > 0 then
  -- As in SQL, an attempt starts the windows that had ended, refused or not.
  for i, key in ipairs(KEYS) do
    if fresh[i] then
      redis.call('HSET', key, 'used', 0, 'end', ends[i])
      redis.call('PEXPIRE', key, ends[i] - now)
    end
  end
  out[1] = 0
  for _, i in ipairs(refused) do out[#out + 1] = i; out[#out + 1] = ends[i] end
  return out
end
out[1] = 1
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'used', used[i] + 1, 'end', ends[i])
  -- Relative to the caller's clock, so a clock that differs from Redis's cannot expire it early.
  redis.call('PEXPIRE', key, ends[i] - now)
  out[#out + 1] = i; out[#out + 1] = ends[i]
end
return out`;

/** KEYS: the held counters, then those to clear; ARGV[1]: how many are held; ARGV[1 + i]: held window ends. */
const RELEASE = `
local held = tonumber(ARGV[1])
for i = 1, held do
  local state = redis.call('HMGET', KEYS[i], 'used', 'end')
  if tonumber(state[2]) == tonumber(ARGV[1 + i]) and (tonumber(state[1]) or 0) > 0 then
    redis.call('HINCRBY', KEYS[i], 'used', -1)
  end
end
for i = held + 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('HSET', KEYS[i], 'used', 0) end
end
return 0`;

interface LimiterCommands {
  wikistructTake(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  wikistructRelease(numKeys: number, ...args: (string | number)[]): Promise<number>;
}

export class RedisLimiter implements Limiter {
  readonly #commands: LimiterCommands;

  /** `prefix` namespaces the keys (a deployment, or a test, per prefix). */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL once per connection (NOSCRIPT).
    redis.defineCommand('wikistructTake', { lua: TAKE });
    redis.defineCommand('wikistructRelease', { lua: RELEASE });
    this.#commands = redis as unknown as LimiterCommands;
  }

  async take(requested: readonly Limit[]): Promise<Ticket> {
    const limits = distinctLimits(requested);
    if (limits.length === 0) return this.ticket([], true, [], 0);
    const now = this.clock.now().getTime();
    const args = limits.flatMap((l) => [l.max, l.windowMs]);
    const out = await this.#commands.wikistructTake(limits.length, ...limits.map((l) => this.key(l.key)), now, ...args);
    const pairs: { limit: Limit; end: number }[] = [];
    for (let i = 1; i < out.length; i += 2) pairs.push({ limit: limits[Number(out[i]) - 1] as Limit, end: Number(out[i + 1]) });
    if (out[0] === 1) return this.ticket(pairs.map((p) => ({ key: p.limit.key, windowEnd: p.end })), true, [], 0);
    return this.ticket([], false, pairs.map((p) => p.limit.key), retryAfterSeconds(pairs.map((p) => p.end), now));
  }

  private ticket(held: readonly Held[], allowed: boolean, refused: readonly string[], retryAfter: number): Ticket {
    return makeTicket(held, allowed, refused, retryAfter, (h, clear) => this.release(h, clear));
  }

  private async release(held: readonly Held[], clear: readonly string[]): Promise<void> {
    if (held.length === 0 && clear.length === 0) return;
    const keys = [...held.map((h) => this.key(h.key)), ...clear.map((k) => this.key(k))];
    await this.#commands.wikistructRelease(keys.length, ...keys, held.length, ...held.map((h) => h.windowEnd));
  }

  private key(key: string): string {
    return `${this.prefix}limit:${key}`;
  }
}
