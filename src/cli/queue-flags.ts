/**
 * The queue flags (docs/scale-out.md), checked once: `convert --queue …` (the coordinator's side)
 * and `worker --queue …` share the connection flags and their reading; the CLI passes the raw
 * strings, a bad value is a UsageError naming the flag.
 */
import { UsageError } from '../io/usage-error.js';
import { DEFAULT_QUEUE_NAME, parseRedisUrl, queueNameOf } from '../batch/queue/redis-target.js';
import type { RedisTarget } from '../batch/queue/redis-target.js';
import type { QueueSettings } from '../batch/queue/coordinator.js';
import { byteSize, seconds, wholeNumber } from './flags.js';

export interface QueueFlags {
  queue?: string | undefined;
  'queue-name'?: string | undefined;
  'shard-size'?: string | undefined;
  'shard-attempts'?: string | undefined;
  'redis-timeout'?: string | undefined;
}

/** Which queue: the flags of both `convert --queue` and `worker` (node:util parseArgs options). */
export const QUEUE_CONNECTION_OPTIONS = {
  queue: { type: 'string' },
  'queue-name': { type: 'string' },
} as const;

export const QUEUE_FLAG_OPTIONS = {
  ...QUEUE_CONNECTION_OPTIONS,
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

/** Undefined without --queue; the other queue flags alone are bad usage. */
export function queueSettings(flags: QueueFlags): QueueSettings | undefined {
  if (flags.queue === undefined) {
    const stray = (['queue-name', 'shard-size', 'shard-attempts', 'redis-timeout'] as const).find((f) => flags[f] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray} needs --queue redis://HOST:PORT`);
    return undefined;
  }
  return {
    ...queueConnection(flags.queue, flags['queue-name']),
    shardBytes: flags['shard-size'] === undefined ? 64 * 1024 ** 2 : byteSize('--shard-size', flags['shard-size'], '64M'),
    attempts: flags['shard-attempts'] === undefined ? 3 : wholeNumber('--shard-attempts', flags['shard-attempts'], 1, 100),
    pollMs: 250,
    redisTimeoutMs: flags['redis-timeout'] === undefined ? 60_000 : seconds('--redis-timeout', flags['redis-timeout']) * 1000,
  };
}

/** The Redis and the queue on it, from `--queue` and `--queue-name`. */
export function queueConnection(queue: string, queueName: string | undefined): { target: RedisTarget; queueName: string } {
  return { target: parseRedisUrl(queue), queueName: queueNameOf(queueName ?? DEFAULT_QUEUE_NAME) };
}
