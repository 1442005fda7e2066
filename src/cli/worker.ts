/**
 * `wikistruct worker --queue redis://HOST:PORT[/DB]`: takes shards of distributed convert runs
 * (src/batch/queue/worker-service.ts) until Ctrl-C, which lets the shards in progress finish;
 * a second Ctrl-C exits at once (the shards are then retried elsewhere, as for a crash).
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../batch/options.js';
import { defaultJobs } from '../workers/pool.js';
import { DEFAULT_QUEUE_NAME } from '../batch/queue/connection.js';
import { seconds, wholeNumber } from './flags.js';
import { QUEUE_CONNECTION_OPTIONS, queueConnection } from './queue-flags.js';
import { onInterrupt, readFlags } from './run.js';
import type { WorkerSettings } from '../batch/queue/worker-service.js';

const HELP = `usage: wikistruct worker --queue redis://HOST:PORT[/DB] [options]

Converts shards of distributed runs (\`wikistruct convert ... --queue URL\`): reads each shard's
inputs and writes its output on the file system the coordinator names (shared by all machines).
Any number of workers, on any number of machines. See docs/scale-out.md.

Options:
      --queue URL              the Redis holding the queue (required)
      --queue-name NAME        the BullMQ queue (default ${DEFAULT_QUEUE_NAME})
  -j, --jobs N                 worker threads (default: ${defaultJobs()}, the available cores)
      --concurrency N          shards converted at once (default 1)
      --lock-duration S        a shard's lock lasts S seconds, renewed while it runs; a dead
                               worker's shard is retried once it expires (default 30)
      --stalled-interval S     how often this worker looks for dead workers' shards (default 30)
      --max-stalled N          a shard whose worker died more than N times fails (default 2)
  -h, --help                   this text
`;

export async function run(argv: string[]): Promise<number> {
  const settings = readFlags('worker', HELP, () => parseFlags(argv));
  if (typeof settings === 'number') return settings;
  const { runWorker } = await import('../batch/queue/worker-service.js');
  const interrupt = onInterrupt();
  try {
    await runWorker(settings, { writeErr: (text) => process.stderr.write(text), signal: interrupt.signal });
    return 0;
  } catch (error) {
    process.stderr.write(`wikistruct worker: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    interrupt.dispose();
  }
}

function parseFlags(argv: string[]): WorkerSettings | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...QUEUE_CONNECTION_OPTIONS,
        jobs: { type: 'string', short: 'j' },
        concurrency: { type: 'string' },
        'lock-duration': { type: 'string' },
        'stalled-interval': { type: 'string' },
        'max-stalled': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  if (values.queue === undefined) throw new UsageError('missing --queue redis://HOST:PORT[/DB]');
  const millis = (flag: 'lock-duration' | 'stalled-interval', fallback: number): number =>
    Math.round((values[flag] === undefined ? fallback : seconds(`--${flag}`, values[flag])) * 1000);
  return {
    ...queueConnection(values.queue, values['queue-name']),
    jobs: values.jobs === undefined ? defaultJobs() : wholeNumber('--jobs', values.jobs, 1, 256),
    concurrency: values.concurrency === undefined ? 1 : wholeNumber('--concurrency', values.concurrency, 1, 64),
    lockDurationMs: millis('lock-duration', 30),
    stalledIntervalMs: millis('stalled-interval', 30),
    maxStalledCount: values['max-stalled'] === undefined ? 2 : wholeNumber('--max-stalled', values['max-stalled'], 0, 100),
    progressIntervalMs: 500,
  };
}
