/**
 * A distributed run over broken inputs (links to follow, dangling links, a directory cycle, a cut
 * dump, a cut NDJSON file split into line ranges, an empty file and folder) gives the bytes of a
 * single-machine run: the planner walks as the single run reads, and the failures its walk finds
 * travel in the shard plan to the workers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wikistruct } from '../../support/cli.js';
import { brokenInputs, parseLines, removeTempDirs, tempDir } from '../fixtures.js';
import { CliProcess, dropQueue, REDIS_URL, redisMissing, uniqueQueue, worker } from './support.js';

afterAll(removeTempDirs);

describe.skipIf(redisMissing)('convert --queue over broken inputs', () => {
  it('output and errors file byte for byte those of a single-machine run', async () => {
    const dir = tempDir('queue-broken');
    const { inputs } = brokenInputs(dir);
    const single = join(dir, 'single.ndjson');
    const alone = await wikistruct(['convert', ...inputs, '-o', single, '-q', '-j', '1']);
    expect(alone.code, alone.stderr).toBe(1);
    expect(parseLines(readFileSync(`${single}.errors.ndjson`, 'utf8')).map((e) => e.code), 'every kind of broken input').toEqual([
      'DANGLING_SYMLINK', 'SYMLINK_LOOP', 'TRUNCATED_INPUT', 'TRUNCATED_INPUT', 'EMPTY_INPUT', 'DANGLING_SYMLINK', 'EMPTY_INPUT',
    ]);
    const queue = uniqueQueue('broken');
    const out = join(dir, 'distributed.ndjson');
    const workers = [worker(queue, REDIS_URL)];
    try {
      await workers[0]!.waitFor(/waiting for shards/);
      const coordinator = new CliProcess(['convert', ...inputs, '-o', out, '--queue', REDIS_URL, '--queue-name', queue, '--shard-size', '1k', '-q']);
      expect(await coordinator.exited, coordinator.stderr).toBe(1);
      expect(readFileSync(out).equals(readFileSync(single)), 'output identical').toBe(true);
      expect(readFileSync(`${out}.errors.ndjson`, 'utf8'), 'errors file identical').toBe(readFileSync(`${single}.errors.ndjson`, 'utf8'));
      const lines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('wikistruct: '));
      expect(lines(coordinator.stderr), 'the same failure lines').toEqual(lines(alone.stderr));
      expect(existsSync(`${out}.parts`), 'parts removed').toBe(false);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await dropQueue(REDIS_URL, queue);
    }
  }, 120_000);
});
