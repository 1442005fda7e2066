/**
 * `convert --worker-young MB`: the young generation of each worker, chosen by the user over the
 * pool's default (src/workers/pool.ts BATCH_YOUNG_GENERATION_MB). Its effect is memory, not output, so the
 * test asks the workers themselves: a preloaded module writes each worker thread's own
 * `resourceLimits` (what Node gave V8 for that thread) to a file.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleHtml, removeTempDirs, tempDir } from '../batch/fixtures.js';
import { ConvertRunSchema, planOutput } from '../../src/batch/options.js';
import { shardOptionsOf } from '../../src/batch/queue/coordinator.js';
import { ShardOptionsSchema } from '../../src/batch/queue/shard.js';
import { BATCH_YOUNG_GENERATION_MB } from '../../src/workers/pool.js';
import { cli } from './cli.js';

afterAll(removeTempDirs);

describe('convert --worker-young', { timeout: 60_000 }, () => {
  const dir = tempDir('worker-young');
  writeFileSync(join(dir, 'Alpha.html'), articleHtml('Alpha'));
  const reports = join(dir, 'reports');
  const preload = join(dir, 'report-limits.cjs');
  writeFileSync(
    preload,
    `const { isMainThread, resourceLimits, threadId } = require('node:worker_threads');
if (!isMainThread) {
  const fs = require('node:fs');
  fs.mkdirSync(${JSON.stringify(reports)}, { recursive: true });
  fs.writeFileSync(${JSON.stringify(reports)} + '/' + process.pid + '-' + threadId + '.json', JSON.stringify(resourceLimits));
}
`,
  );

  /** The young generation each worker of one run was given. */
  async function youngOfWorkers(flags: string[]): Promise<number[]> {
    const before = new Set(safeList(reports));
    const result = await cli(['convert', join(dir, 'Alpha.html'), '-o', '-', '--quiet', '--jobs', '2', ...flags], { ...process.env, NODE_OPTIONS: `--require ${preload}` });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).abstract).toBe('Alpha is the subject of this article.');
    return safeList(reports)
      .filter((f) => !before.has(f))
      .map((f) => (JSON.parse(readFileSync(join(reports, f), 'utf8')) as { maxYoungGenerationSizeMb: number }).maxYoungGenerationSizeMb);
  }

  it('gives every worker the size asked for, and the default without it', async () => {
    const asked = await youngOfWorkers(['--worker-young', '24']);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([24]));
    const chosen = await youngOfWorkers([]);
    expect(chosen.length).toBeGreaterThan(0);
    expect(new Set(chosen)).toEqual(new Set([BATCH_YOUNG_GENERATION_MB]));
  });

  it('travels with the shards of a --queue run when named; without it each worker machine takes the default', () => {
    const shardOf = (extra: object) => {
      const run = ConvertRunSchema.parse({ inputs: [join(dir, 'Alpha.html')], output: join(dir, 'out.ndjson'), jobs: 1, ...extra });
      return ShardOptionsSchema.parse(shardOptionsOf(run, planOutput(run)));
    };
    expect(shardOf({ workerYoungMb: 48 }).workerYoungMb).toBe(48);
    expect(shardOf({}).workerYoungMb).toBeUndefined();
  });

  it('refuses a size that is not a whole number of MB from 3 to 1024, as bad usage', async () => {
    for (const bad of ['0', '2', '1025', '48MB', '-1']) {
      const result = await cli(['convert', join(dir, 'Alpha.html'), '-o', '-', '--quiet', '--worker-young', bad]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain('--worker-young');
    }
  });
});

function safeList(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}
