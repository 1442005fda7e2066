/**
 * The queue flags of `convert --queue …` (the coordinator's side), checked once: the CLI passes
 * the raw strings, a bad value is a UsageError naming the flag.
 */
import { UsageError } from '../options.js';
import { DEFAULT_QUEUE_NAME, parseRedisUrl, queueNameOf } from './connection.js';
import type { QueueSettings } from './coordinator.js';

export interface QueueFlags {
  queue?: string | undefined;
  'queue-name'?: string | undefined;
  'shard-size'?: string | undefined;
  'shard-attempts'?: string | undefined;
  'redis-timeout'?: string | undefined;
}

export const QUEUE_FLAG_OPTIONS = {
  queue: { type: 'string' },
  'queue-name': { type: 'string' },
  'shard-size': { type: 'string' },
  'shard-attempts': { type: 'string' },
  'redis-timeout': { type: 'string' },
} as const;

export const QUEUE_HELP = `
Distributed conversion (docs/scale-out.md): start \`wikistruct worker --queue URL\` on any number of
machines sharing the inputs' and the output's file system, then:
      --queue redis://HOST:PORT[/DB]  split the inputs into shards, queue them on Redis (BullMQ),
                               follow the workers, then assemble the output in input order
      --queue-name NAME        the BullMQ queue (default ${DEFAULT_QUEUE_NAME}; the workers' must match)
      --shard-size N           bytes of input per shard, e.g. 64M (default 64M); larger NDJSON
                               files are cut at line ends
      --shard-attempts N       attempts of a shard whose conversion fails (default 3)
      --redis-timeout S        stop (resumable) when Redis is unreachable this long (default 60)
`;

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Undefined without --queue; the other queue flags alone are bad usage. */
export function queueSettings(flags: QueueFlags): QueueSettings | undefined {
  if (flags.queue === undefined) {
    const stray = (['queue-name', 'shard-size', 'shard-attempts', 'redis-timeout'] as const).find((f) => flags[f] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} needs --queue redis://HOST:PORT`);
    return undefined;
  }
  return {
    target: parseRedisUrl(flags.queue),
    queueName: queueNameOf(flags['queue-name'] ?? DEFAULT_QUEUE_NAME),
    shardBytes: flags['shard-size'] === undefined ? 64 * 1024 ** 2 : sizeFlag('--shard-size', flags['shard-size']),
    attempts: flags['shard-attempts'] === undefined ? 3 : wholeNumber('--shard-attempts', flags['shard-attempts'], 1, 100),
    pollMs: 250,
    redisTimeoutMs: flags['redis-timeout'] === undefined ? 60_000 : secondsFlag('--redis-timeout', flags['redis-timeout']) * 1000,
  };
}

export function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number; got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}; got ${n}`);
  return n;
}

export function secondsFlag(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} takes a number of seconds above 0; got "${value}"`);
  return n;
}

function sizeFlag(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} takes a size in bytes, e.g. 1048576 or 64M; got "${value}"`);
  const n = Math.round(Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]!);
  if (n < 1) throw new UsageError(`${flag} must be at least 1 byte; got "${value}"`);
  return n;
}
