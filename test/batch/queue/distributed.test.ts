/**
 * Distributed conversion over real processes and a real Redis: a coordinator (`convert --queue`)
 * and `wikistruct worker` processes. Each test compares the assembled output and errors file
 * byte for byte with a single-machine `convert` of the same inputs, which also proves that no
 * shard was written twice or lost.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wikistruct } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../fixtures.js';
import { CliProcess, dropQueue, PrivateRedis, REDIS_URL, redisMissing, redisServerAvailable, uniqueQueue, worker, writeInputs } from './support.js';

afterAll(removeTempDirs);

const SHARD = ['--shard-size', '16k'];

async function singleMachine(inputs: string[], dir: string): Promise<{ output: Buffer; errors: Buffer }> {
  const out = join(dir, 'single.ndjson');
  const run = await wikistruct(['convert', ...inputs, '-o', out, '-q', '-j', '1']);
  expect(run.code, run.stderr).toBe(1); // one malformed line among the inputs
  return { output: readFileSync(out), errors: readFileSync(`${out}.errors.ndjson`) };
}

function expectSameAs(expected: { output: Buffer; errors: Buffer }, out: string): void {
  const output = readFileSync(out);
  expect(output.toString().split('\n').length, 'as many lines as the single-machine output').toBe(expected.output.toString().split('\n').length);
  expect(output.equals(expected.output), 'output byte for byte that of a single-machine run').toBe(true);
  expect(readFileSync(`${out}.errors.ndjson`).equals(expected.errors), 'errors file byte for byte that of a single-machine run').toBe(true);
  expect(existsSync(`${out}.parts`), 'the shard parts are removed once assembled').toBe(false);
}

describe.skipIf(redisMissing)('convert --queue with workers on the local Redis', () => {
  it('survives a worker killed with SIGKILL mid-shard: its shard is retried by another worker, the result is exact', async () => {
    const dir = tempDir('queue-kill');
    const inputs = writeInputs(dir);
    const expected = await singleMachine(inputs, dir);
    const queue = uniqueQueue('kill');
    const out = join(dir, 'distributed.ndjson');
    const workers: CliProcess[] = [];
    try {
      // The first worker starts alone, so it is the one that takes shard 0, and pauses inside it.
      const doomed = worker(queue, REDIS_URL, { WIKISTRUCT_TEST_PAUSE_AFTER_RECORDS: '5' });
      workers.push(doomed);
      await doomed.waitFor(/waiting for shards/);
      const coordinator = new CliProcess(['convert', ...inputs, '-o', out, '--queue', REDIS_URL, '--queue-name', queue, ...SHARD, '--progress-interval', '0.2']);
      const [, shard] = await doomed.waitFor(/TEST PAUSE in shard (\d+) after 5 records/);
      expect(existsSync(join(`${out}.parts`)), 'parts directory on the shared storage').toBe(true);
      workers.push(worker(queue, REDIS_URL), worker(queue, REDIS_URL));
      doomed.kill('SIGKILL');
      expect(await doomed.exited).toBeNull();

      const code = await coordinator.exited;
      expect(code, coordinator.stderr).toBe(1);
      expectSameAs(expected, out);
      const retried = workers.slice(1).some((w) => new RegExp(`shard ${shard} done`).test(w.stderr));
      expect(retried, `shard ${shard} converted by a surviving worker`).toBe(true);
      expect(coordinator.stderr).toMatch(/converted 83 records, 1 failed, 0 skipped/);
      expect(coordinator.stderr, 'progress aggregated from the workers').toMatch(/records \| .* rec\/s/);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await dropQueue(REDIS_URL, queue);
    }
  }, 120_000);
});

describe.skipIf(redisMissing || !redisServerAvailable)('convert --queue when Redis restarts (a private redis-server, no persistence)', () => {
  it('completes when Redis comes back empty: lost shards are queued again, finished ones kept', async () => {
    const dir = tempDir('queue-restart');
    const inputs = writeInputs(dir);
    const expected = await singleMachine(inputs, dir);
    const redis = await PrivateRedis.start();
    const queue = uniqueQueue('restart');
    const out = join(dir, 'distributed.ndjson');
    const resume = join(dir, 'go-on');
    const workers: CliProcess[] = [];
    try {
      const paused = worker(queue, redis.url, { WIKISTRUCT_TEST_PAUSE_AFTER_RECORDS: '5', WIKISTRUCT_TEST_PAUSE_UNTIL: resume });
      workers.push(paused);
      await paused.waitFor(/waiting for shards/);
      const coordinator = new CliProcess(['convert', ...inputs, '-o', out, '--queue', redis.url, '--queue-name', queue, ...SHARD, '-q']);
      await paused.waitFor(/TEST PAUSE in shard/);
      await redis.kill();
      await redis.restart();
      writeFileSync(resume, '');
      workers.push(worker(queue, redis.url));
      expect(await coordinator.exited, coordinator.stderr).toBe(1);
      expect(coordinator.stderr).toMatch(/no longer in Redis and not written: queued again/);
      expectSameAs(expected, out);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await redis.kill();
    }
  }, 120_000);

  it('stops with a clear error when Redis stays away, and --resume finishes the run', async () => {
    const dir = tempDir('queue-resume');
    const inputs = writeInputs(dir);
    const expected = await singleMachine(inputs, dir);
    const redis = await PrivateRedis.start();
    const queue = uniqueQueue('resume');
    const out = join(dir, 'distributed.ndjson');
    const release = join(dir, 'go-on');
    const workers: CliProcess[] = [];
    const args = ['convert', ...inputs, '-o', out, '--queue', redis.url, '--queue-name', queue, ...SHARD, '-q', '--redis-timeout', '1'];
    try {
      const paused = worker(queue, redis.url, { WIKISTRUCT_TEST_PAUSE_AFTER_RECORDS: '5', WIKISTRUCT_TEST_PAUSE_UNTIL: release });
      workers.push(paused);
      await paused.waitFor(/waiting for shards/);
      const coordinator = new CliProcess(args);
      await paused.waitFor(/TEST PAUSE in shard/);
      await redis.kill();
      expect(await coordinator.exited).toBe(1);
      expect(coordinator.stderr).toMatch(/lost Redis at redis:\/\/127\.0\.0\.1:\d+ for more than 1 s .*run the same command with --resume once Redis is back/);
      expect(existsSync(out), 'no output assembled by a stopped run').toBe(false);

      await redis.restart();
      writeFileSync(release, '');
      workers.push(worker(queue, redis.url));
      const resumed = await wikistruct([...args, '--resume']);
      expect(resumed.code, resumed.stderr).toBe(1);
      expectSameAs(expected, out);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await redis.kill();
    }
  }, 120_000);
});
