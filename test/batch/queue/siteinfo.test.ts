/**
 * `convert --queue --siteinfo FILE`: every shard converts with the run's siteinfo, as a
 * single-machine run of the same inputs does (issue 23). The settings a shard carries are compared
 * with the single-machine run's own (batch/convert.ts convertOptions), and a distributed run over
 * a real Redis and a real `wikistruct worker` gives the single-machine output byte for byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertOptions } from '../../../src/batch/convert.js';
import { ConvertRunSchema, planOutput, UsageError } from '../../../src/batch/options.js';
import { resolveTarget } from '../../../src/batch/target.js';
import { convertOnQueue, shardOptionsOf } from '../../../src/batch/queue/coordinator.js';
import type { QueueSettings } from '../../../src/batch/queue/coordinator.js';
import { shardConvertOptions } from '../../../src/batch/queue/worker-service.js';
import { ShardOptionsSchema } from '../../../src/batch/queue/shard.js';
import { checkSiteinfoFile } from '../../../src/io/sources/siteinfo.js';
import { wikistruct } from '../../support/cli.js';
import { removeTempDirs, tempDir } from '../fixtures.js';
import { CliProcess, dropQueue, REDIS_URL, redisMissing, uniqueQueue, worker } from './support.js';

afterAll(removeTempDirs);

const SITEINFO = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" xml:lang="de">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>dewiki</dbname>
    <base>https://de.wikipedia.org/wiki/Wikipedia:Hauptseite</base>
    <case>first-letter</case>
    <namespaces>
      <namespace key="6" case="first-letter">Datei</namespace>
      <namespace key="14" case="first-letter">Kategorie</namespace>
    </namespaces>
  </siteinfo>
</mediawiki>
`;

/** Wikitext envelopes that do not name their wiki: the siteinfo does. */
function writeWikitextInputs(dir: string): { input: string; siteinfo: string } {
  const siteinfo = join(dir, 'siteinfo.xml');
  writeFileSync(siteinfo, SITEINFO);
  const lines = Array.from({ length: 24 }, (_, i) =>
    JSON.stringify({ name: `Seite ${i}`, identifier: i + 1, article_body: { wikitext: `[[Datei:Bild ${i}.jpg|mini|Bild ${i}]]\n'''Seite ${i}''' ist eine Seite.\n\n== Abschnitt ==\nText ${i}.\n[[Kategorie:Test]]` } }),
  );
  const input = join(dir, 'seiten.ndjson');
  writeFileSync(input, lines.join('\n') + '\n');
  return { input, siteinfo };
}

describe('the siteinfo of a --queue run', () => {
  it('each shard carries the file (absolute) and converts with what a single-machine run reads from it', async () => {
    const dir = tempDir('queue-siteinfo-options');
    const { input, siteinfo } = writeWikitextInputs(dir);
    const run = ConvertRunSchema.parse({ inputs: [input], output: join(dir, 'out.ndjson'), jobs: 1, siteinfo: siteinfo.replace(`${resolve('.')}/`, ''), quiet: true });
    const shard = ShardOptionsSchema.parse(shardOptionsOf(run, planOutput(run)));
    expect(shard.siteinfo, 'absolute: workers run from any directory').toBe(resolve(siteinfo));
    const single = convertOptions(run, await resolveTarget(run, () => {}));
    expect(single.siteinfo, 'the file’s XML, parsed on each worker').toBe(SITEINFO);
    expect(shardConvertOptions(shard), 'a shard converts as the single-machine run').toEqual(single);
    const without = ConvertRunSchema.parse({ inputs: [input], output: join(dir, 'out.ndjson'), jobs: 1, quiet: true });
    expect(shardConvertOptions(shardOptionsOf(without, planOutput(without))).siteinfo, 'no --siteinfo, no site').toBeUndefined();
  });

  it('a bad --siteinfo is bad usage before anything is queued', async () => {
    const dir = tempDir('queue-siteinfo-bad');
    const { input } = writeWikitextInputs(dir);
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<html><body>not siteinfo</body></html>');
    await expect(checkSiteinfoFile(bad)).rejects.toThrow(UsageError);
    // Redis on a closed port: the run must refuse before it tries to reach it.
    const queue: QueueSettings = { target: { host: '127.0.0.1', port: 1, db: 0, url: 'redis://127.0.0.1:1' }, queueName: 'never', shardBytes: 1024, attempts: 1, pollMs: 10, redisTimeoutMs: 10 };
    const refused = convertOnQueue({ inputs: [input], output: join(dir, 'out.ndjson'), jobs: 1, siteinfo: bad, quiet: true, queue }, { writeErr: () => {}, isTTY: false });
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/--siteinfo .*bad\.xml/);
  });
});

// Three processes start (a convert, a worker, a coordinator): slow on a loaded machine, never timed.
describe.skipIf(redisMissing)('convert --queue --siteinfo with a worker on the local Redis', { timeout: 180_000 }, () => {
  it('gives the output of a single-machine run with the same --siteinfo, byte for byte', async () => {
    const dir = tempDir('queue-siteinfo');
    const { input, siteinfo } = writeWikitextInputs(dir);
    const single = join(dir, 'single.ndjson');
    const local = await wikistruct(['convert', input, '-o', single, '--siteinfo', siteinfo, '-q', '-j', '1']);
    expect(local.code, local.stderr).toBe(0);
    const queue = uniqueQueue('siteinfo');
    const out = join(dir, 'distributed.ndjson');
    const w = worker(queue, REDIS_URL);
    try {
      await w.waitFor(/waiting for shards/);
      const coordinator = new CliProcess(['convert', input, '-o', out, '--siteinfo', siteinfo, '--queue', REDIS_URL, '--queue-name', queue, '--shard-size', '2k', '-q']);
      expect(await coordinator.exited, coordinator.stderr).toBe(0);
      expect(readFileSync(out).equals(readFileSync(single)), 'output byte for byte that of a single-machine run').toBe(true);
      expect(w.stderr, 'the inputs were cut into several shards').toMatch(/shard 1 done/);
    } finally {
      w.kill('SIGTERM');
      await w.exited;
      await dropQueue(REDIS_URL, queue);
    }
  });
});
