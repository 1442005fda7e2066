/**
 * Building structured snapshots, on both storage backends: the file is byte for byte what
 * `wikistruct convert --format snapshot` writes for the same articles; a build that crashed
 * resumes from its checkpoint and ends with the bytes of an uninterrupted build, while the old
 * snapshot stays served; one build per snapshot at a time; requests keep answering during a
 * build and see the old snapshot until the new one is published.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { END_OF_ARCHIVE_MEMBER } from '../../../src/io/sinks/snapshot.js';
import { ENGINE_VERSION } from '../../../src/service/content/engine-version.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { envelopeOf } from '../../../src/service/content/service.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { SnapshotBusyError } from '../../../src/service/snapshots/build-lock.js';
import { buildSnapshot, type BuildOptions } from '../../../src/service/snapshots/builder.js';
import { partialDir, readSidecar } from '../../../src/service/snapshots/layout.js';
import { snapshotTargets, type SnapshotTarget } from '../../../src/service/snapshots/source.js';
import { wikistruct } from '../../support/cli.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, startTestServer } from '../helpers/harness.js';
import { call, ndjsonLines, untar } from './enterprise-support.js';
import { envelope, logIn, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** Eight articles, titles chosen so that byte order differs from dictionary order. */
const TITLES = ['Zürich', 'Ant', 'Apple', 'Éclair', 'Zebra', 'Mango', 'Ωmega', 'Banana'];
/** Small entries, so that eight articles make several of them and several checkpoints. */
const CHUNK = 1500;

describe.each(BACKENDS)('snapshot builds on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let parser: EngineClient;
  let target: SnapshotTarget;
  const clock = new ManualClock();
  const options = (dir: string, extra: Partial<BuildOptions> = {}): BuildOptions => ({
    db: database.db,
    clock,
    dir,
    engineVersion: ENGINE_VERSION,
    articleJson: () => Promise.reject(new Error('every article was parsed at import')),
    chunkBytes: CHUNK,
    pageSize: 3,
    ...extra,
  });
  const fileOf = async (dir: string): Promise<Buffer> => {
    const sidecar = await readSidecar(dir, 'enwiki_namespace_0');
    return readFileSync(join(dir, sidecar!.file));
  };

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    parser = createEngineClient({ threads: 1 });
    const envelopes = TITLES.map((title, i) => envelope({ project: 'enwiki', language: 'en', title, revision: 100 + i }));
    const summary = await importInputs([writeEnvelopes(freshDir('wikistruct-snapshot-build'), envelopes)], { store: new ArticleStore(database.db, clock), engine: parser });
    expect(summary, 'imported').toMatchObject({ inserted: TITLES.length, failed: 0 });
    const targets = await snapshotTargets(database.db);
    target = targets[0]!;
    expect(targets.length, 'one target').toBe(1);
    expect(target, 'one project and namespace').toEqual({ project: 'enwiki', namespace: 0, language: 'en', articles: TITLES.length });
  });
  afterAll(async () => {
    await parser?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('the file is byte for byte what `wikistruct convert --format snapshot` writes for the same articles', async () => {
    const dir = freshDir('wikistruct-snapshot-same');
    await buildSnapshot(target, options(dir));
    const built = await fileOf(dir);
    expect((await untar(built)).size, 'several NDJSON entries').toBeGreaterThan(2);

    // The stored envelopes, in the order the snapshot holds them, converted by the CLI.
    const store = new ArticleStore(database.db, clock);
    const lines = ndjsonLines(await untar(built)).map((line) => (JSON.parse(line) as { name: string }).name);
    const envelopes = await Promise.all(lines.map(async (title) => JSON.stringify(envelopeOf((await store.source('enwiki', title))!))));
    const work = freshDir('wikistruct-snapshot-convert');
    writeFileSync(join(work, 'envelopes.ndjson'), `${envelopes.join('\n')}\n`);
    const out = join(work, 'enwiki_namespace_0.tar.gz');
    const run = await wikistruct(['convert', join(work, 'envelopes.ndjson'), '-o', out, '--chunk-size', String(CHUNK), '--jobs', '1', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out).equals(built), 'identical bytes').toBe(true);
    expect(lines, 'in title byte order').toEqual([...TITLES].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));

    // Where each entry ends, as the sidecar records it for the chunks: every prefix of whole entries, closed by the end-of-archive member, is an archive of those entries.
    const ends = (await readSidecar(dir, 'enwiki_namespace_0'))!.entry_ends!;
    const entries = [...(await untar(built)).entries()];
    expect([ends.length, ends.at(-1)! + END_OF_ARCHIVE_MEMBER.length], 'one end per entry; after the last, only the end-of-archive member').toEqual([entries.length, built.length]);
    for (const [k, end] of ends.entries()) {
      expect([...(await untar(Buffer.concat([built.subarray(0, end), END_OF_ARCHIVE_MEMBER]))).entries()], `the file up to entry ${k}'s end`).toEqual(entries.slice(0, k + 1));
    }
  });

  test.skipIf(skip)('a crashed build leaves the old snapshot served and resumes from its checkpoint to the bytes of an uninterrupted build', async () => {
    const dir = freshDir('wikistruct-snapshot-resume');
    const reference = freshDir('wikistruct-snapshot-reference');
    await buildSnapshot(target, options(reference));
    const expected = await fileOf(reference);

    const old = await buildSnapshot(target, options(dir, { chunkBytes: 10 * CHUNK }));
    let checkpoints = 0;
    const crash = new Error('crash');
    await expect(
      buildSnapshot(
        target,
        options(dir, {
          afterCheckpoint: () => {
            checkpoints += 1;
            if (checkpoints === 2) throw crash;
          },
        }),
      ),
      'the build dies after its second checkpoint',
    ).rejects.toBe(crash);
    // What a dying process may leave past its checkpoint: bytes of an entry never finished.
    appendFileSync(join(partialDir(dir), 'enwiki_namespace_0.tar.gz'), Buffer.from('half an entry'));
    expect(await readSidecar(dir, 'enwiki_namespace_0'), 'the old snapshot is still the one published').toEqual(old.sidecar);
    expect(existsSync(join(dir, old.sidecar.file)), 'and its file is there').toBe(true);

    const resumed = await buildSnapshot(target, options(dir));
    expect(resumed.resumedAfter, 'continued after the articles of two complete entries').toBeGreaterThan(0);
    expect(resumed.resumedAfter, 'not after all of them').toBeLessThan(TITLES.length);
    expect((await fileOf(dir)).equals(expected), 'the bytes of the uninterrupted build').toBe(true);
    expect(resumed.sidecar.version, 'the same version').toBe((await readSidecar(reference, 'enwiki_namespace_0'))!.version);
    expect(resumed.sidecar.entry_ends, 'the same entry ends: those before the crash kept in the checkpoint').toEqual((await readSidecar(reference, 'enwiki_namespace_0'))!.entry_ends);
    expect(readdirSync(partialDir(dir)), 'no checkpoint, partial file or lock left').toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tar.gz')), 'the old file is gone').toEqual([resumed.sidecar.file]);
  });

  test.skipIf(skip)('a checkpoint of another engine version or entry size is not continued: the build starts over', async () => {
    const dir = freshDir('wikistruct-snapshot-other-engine');
    const reference = freshDir('wikistruct-snapshot-reference-2');
    await buildSnapshot(target, options(reference));
    const stop = new Error('stop');
    const store = new ArticleStore(database.db, clock);
    // Another engine version has nothing cached: its "parse" here is the current cached Article.
    const articleJson = async (row: { project: string; title: string; revision: number }) => (await store.parsed(row.project, row.title, row.revision, ENGINE_VERSION))!;
    await expect(buildSnapshot(target, options(dir, { engineVersion: 'an-older-engine', articleJson, afterCheckpoint: () => Promise.reject(stop) })), 'crashed').rejects.toBe(stop);
    const again = await buildSnapshot(target, options(dir));
    expect(again.resumedAfter, 'started over').toBe(0);
    expect((await fileOf(dir)).equals(await fileOf(reference)), 'correct bytes').toBe(true);
  });

  test.skipIf(skip)('one build of a snapshot at a time; a lock left by a dead builder is taken over', async () => {
    const dir = freshDir('wikistruct-snapshot-lock');
    mkdirSync(partialDir(dir), { recursive: true });
    const lock = join(partialDir(dir), 'enwiki_namespace_0.lock');
    writeFileSync(lock, String(process.pid));
    await expect(buildSnapshot(target, options(dir)), 'a live holder: refused').rejects.toBeInstanceOf(SnapshotBusyError);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(lock, dead);
    const built = await buildSnapshot(target, options(dir));
    expect(built.sidecar.articles, 'a dead holder: built').toBe(TITLES.length);
    expect(existsSync(lock), 'and released').toBe(false);
  });

  test.skipIf(skip)('requests are answered while a build runs, from the old snapshot until the new one is published', async () => {
    const dir = freshDir('wikistruct-snapshot-serving');
    const server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), clock, offline: true, content: { parseThreads: 1, snapshotsDir: dir } });
    try {
      const { username, password } = await addUser(database.db, clock);
      const token = (await logIn(server, username, password)).accessToken;
      const info = async () => (await call(server.url, '/v2/snapshots/structured-contents/enwiki_namespace_0', { token })).json as { version: string };
      const old = await buildSnapshot(target, options(dir));
      const oldBytes = await fileOf(dir);
      await importInputs([writeEnvelopes(freshDir('wikistruct-snapshot-newer'), [envelope({ project: 'enwiki', language: 'en', title: 'Mango', revision: 999 })])], {
        store: new ArticleStore(database.db, clock),
        engine: parser,
      });

      let release!: () => void;
      const paused = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const atCheckpoint = new Promise<void>((resolve) => (reached = resolve));
      const building = buildSnapshot(target, options(dir, { afterCheckpoint: async () => {
        reached();
        await paused;
      } }));
      await atCheckpoint;
      expect((await info()).version, 'mid-build: the old version').toBe(old.sidecar.version);
      const download = await call(server.url, '/v2/snapshots/structured-contents/enwiki_namespace_0/download', { token });
      expect(download.bytes.equals(oldBytes), 'mid-build: the old bytes').toBe(true);
      release();
      const fresh = await building;
      expect((await info()).version, 'published: the new version').toBe(fresh.sidecar.version);
      expect(fresh.sidecar.version, 'which differs').not.toBe(old.sidecar.version);
    } finally {
      await server.close();
    }
  });
});
