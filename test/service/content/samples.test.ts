/**
 * The sample articles stored pre-parsed (src/service/content/samples.ts, scripts/build-samples.ts):
 * the build wrote each sample as `import` would store it, with this engine's Article byte for
 * byte; a first start inserts those rows and starts no engine thread; an Article of another
 * engine version is left for the first request to parse. The build also stores them in the
 * embedded database's samples template: a first start on an empty data directory unpacks it,
 * inserts nothing, builds no snapshot (the build packed theirs), and serves them.
 */
import { cpSync, createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gzipSync, createGunzip } from 'node:zlib';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { isFailure, readInputs } from '../../../src/io/sources/index.js';
import { packageFile } from '../../../src/package-files.js';
import { systemClock } from '../../../src/service/clock.js';
import { ENGINE_VERSION } from '../../../src/service/content/engine-version.js';
import { prepareRecord, type PreparedRecord } from '../../../src/service/content/importer.js';
import { SAMPLES_FILE, seedSamples, STORED_SAMPLES_FILE, StoredSampleSchema, type StoredSample } from '../../../src/service/content/samples.js';
import { createEngineClient } from '../../../src/service/engine-client.js';
import { createLogger } from '../../../src/service/logger.js';
import { startServer } from '../../../src/service/server.js';
import { migrate } from '../../../src/service/storage/migrate.js';
import { openStorage } from '../../../src/service/storage/open.js';
import { findTemplate } from '../../../src/service/storage/pglite-template.js';
import { workerThreadsStarted } from '../../../src/workers/pool.js';
import { BACKENDS, templateDir } from '../helpers/backends.js';

vi.setConfig({ testTimeout: 120_000 });

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function storedSamples(): Promise<StoredSample[]> {
  const file = packageFile(STORED_SAMPLES_FILE);
  if (file === undefined) throw new Error(`${STORED_SAMPLES_FILE} is missing: npm run build`);
  const lines: StoredSample[] = [];
  for await (const line of createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })) {
    if (line !== '') lines.push(StoredSampleSchema.parse(JSON.parse(line)));
  }
  return lines;
}

/** Each shipped envelope as `import` prepares it, parsed now by the engine's worker thread. */
async function importedNow(): Promise<PreparedRecord[]> {
  const engine = createEngineClient({ threads: 1 });
  const out: PreparedRecord[] = [];
  try {
    for await (const item of readInputs([packageFile(SAMPLES_FILE)!], { exclude: new Set(), onRawBytes: () => {}, wholeFileLimit: 1 << 27 })) {
      if (isFailure(item)) throw new Error(item.error);
      const prepared = await prepareRecord(item, { engine });
      if (prepared === 'skipped') throw new Error('a sample is not an article');
      out.push(prepared);
    }
  } finally {
    await engine.close();
  }
  return out;
}

describe('the stored samples', () => {
  test('the build stored every sample as import does, with the Article this engine makes of it', async () => {
    const stored = await storedSamples();
    const now = await importedNow();
    expect(stored.length, 'four samples (samples/NOTICE.md)').toBe(4);
    // Source rows compared as they travel (JSON): undefined fields are not written.
    expect(stored.map((s) => s.source), 'the rows import stores').toEqual(now.map((p) => JSON.parse(JSON.stringify(p.source)) as unknown));
    expect(stored.map((s) => s.engineVersion), 'parsed by this engine version').toEqual(now.map(() => ENGINE_VERSION));
    for (const [i, sample] of stored.entries()) {
      expect(sample.article === now[i]!.json, `${sample.source.title} (${sample.source.project}): the engine's Article JSON, byte for byte`).toBe(true);
    }
  });

  test('a first start stores them pre-parsed and starts no engine thread, its snapshot build included', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-samples-'));
    dirs.push(data);
    cpSync(await templateDir(), join(data, 'pglite'), { recursive: true });
    const announced: string[] = [];
    const threadsBefore = workerThreadsStarted();
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: data,
      logger: createLogger({ level: 'silent' }),
      announce: (text) => void announced.push(text),
    });
    // The snapshots a first start builds in the background read the stored Articles too.
    await server.app.snapshots?.idle();
    expect(server.app.snapshots?.history.length, 'the start built snapshots').toBeGreaterThan(0);
    const threadsAfter = workerThreadsStarted();
    await server.close();
    expect(threadsAfter - threadsBefore, 'no worker thread was started by the start').toBe(0);
    expect(announced.join(''), 'the samples are announced').toContain('Loaded 4 sample articles into the empty store');

    const { db } = await openStorage({ dataDir: data, command: 'test' });
    try {
      const rows = await db.query<{ project: string; title: string; engine_version: string; article: string }>(
        'SELECT project, title, engine_version, article FROM parsed_articles ORDER BY project, title',
      );
      const stored = (await storedSamples()).sort((a, b) => (a.source.project + a.source.title < b.source.project + b.source.title ? -1 : 1));
      expect(rows.map((r) => [r.project, r.title, r.engine_version]), 'one Article per sample, of this engine version').toEqual(
        stored.map((s) => [s.source.project, s.source.title, ENGINE_VERSION]),
      );
      expect(rows.every((r, i) => r.article === stored[i]!.article), 'the stored Articles are the built ones').toBe(true);
    } finally {
      await db.close();
    }
  });

  test.skipIf(findTemplate('samples') === undefined)('a new embedded store is unpacked from the samples template: migrated, the samples in it, nothing to insert', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-samples-template-'));
    dirs.push(data);
    const { db, samplesFromTemplate } = await openStorage({ dataDir: data, command: 'test', samples: true });
    try {
      expect(samplesFromTemplate, 'made from the samples template').toBe(true);
      expect(await migrate(db), 'every migration already applied').toEqual([]);
      const rows = await db.query<{ project: string; title: string; engine_version: string; article: string }>(
        'SELECT p.project, p.title, p.engine_version, p.article FROM articles a JOIN parsed_articles p USING (project, title, revision) ORDER BY p.project, p.title',
      );
      const stored = (await storedSamples()).sort((a, b) => (a.source.project + a.source.title < b.source.project + b.source.title ? -1 : 1));
      expect(rows.map((r) => [r.project, r.title, r.engine_version]), 'every sample with its Article').toEqual(stored.map((s) => [s.source.project, s.source.title, s.engineVersion]));
      expect(rows.every((r, i) => r.article === stored[i]!.article), 'the built Articles').toBe(true);
      expect(await seedSamples(db, systemClock), 'nothing left to insert').toBeUndefined();
    } finally {
      await db.close();
    }
    const plain = mkdtempSync(join(tmpdir(), 'wikistruct-samples-template-'));
    dirs.push(plain);
    const bare = await openStorage({ dataDir: plain, command: 'test' });
    try {
      expect(bare.samplesFromTemplate, 'not asked for samples: the plain template').toBeUndefined();
      expect(await bare.db.query('SELECT title FROM articles'), 'which holds no article').toEqual([]);
    } finally {
      await bare.db.close();
    }
  });

  test.skipIf(findTemplate('samples') === undefined)('a first start on an empty data directory announces the samples and serves one', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wikistruct-samples-first-'));
    dirs.push(data);
    const announced: string[] = [];
    const started = Date.now();
    vi.stubEnv('WIKISTRUCT_ADMIN_PASSWORD', 'a long enough passphrase');
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: data,
      offline: true,
      logger: createLogger({ level: 'silent' }),
      announce: (text) => void announced.push(text),
    });
    try {
      expect(announced.join(''), 'the samples are announced').toContain('Loaded 4 sample articles into the empty store (samples/NOTICE.md): Albert Einstein (enwiki), Albert Einstein (enwikiversity), Albert Einstein (simplewiki), Joséphine Baker (frwiki).');
      const login = await fetch(`${server.url}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'a long enough passphrase' }),
      });
      const token = ((await login.json()) as { access_token: string }).access_token;
      const reply = await fetch(`${server.url}/v2/articles/Jos%C3%A9phine_Baker`, { headers: { authorization: `Bearer ${token}` } });
      expect(reply.status, 'offline: answered from the store').toBe(200);
      expect(((await reply.json()) as { name: string; is_part_of: { identifier: string } }[]).map((a) => [a.name, a.is_part_of.identifier]), 'the sample').toEqual([['Joséphine Baker', 'frwiki']]);
      // The samples' snapshots came with them (built at build time): the start built none.
      await server.app.snapshots?.idle();
      expect(server.app.snapshots?.history.filter((h) => h.outcome === 'built'), 'no snapshot built by the start').toEqual([]);
      expect(readdirSync(join(data, 'snapshots')).filter((n) => n.endsWith('.json')).sort(), 'the structured ones').toEqual(
        ['enwiki', 'enwikiversity', 'frwiki', 'simplewiki'].map((p) => `${p}_namespace_0.json`),
      );
      expect(readdirSync(join(data, 'snapshots', 'articles')).filter((n) => n.endsWith('.json')).length, 'and the regular ones').toBe(4);
      const snapshot = await fetch(`${server.url}/v2/snapshots/structured-contents/frwiki_namespace_0`, { headers: { authorization: `Bearer ${token}` } });
      expect([snapshot.status, ((await snapshot.json()) as { identifier: string }).identifier], 'served').toEqual([200, 'frwiki_namespace_0']);
    } finally {
      await server.close();
      vi.unstubAllEnvs();
    }
    const { db } = await openStorage({ dataDir: data, command: 'test' });
    try {
      const dates = await db.query<{ stored: string }>(`SELECT floor(extract(epoch FROM stored_at) * 1000)::bigint::text AS stored FROM articles`);
      expect(dates.length, 'four samples').toBe(4);
      // Stored at build time, dated at the start, as inserting them then would have: their age
      // decides when they are checked upstream again.
      expect(dates.every((d) => Number(d.stored) >= started - 1000), 'dated at the first start, not at the build').toBe(true);
    } finally {
      await db.close();
    }
  });

  test('an Article of another engine version is not stored: the article is parsed on its first request', async () => {
    const [pglite] = BACKENDS;
    const database = await pglite!.open();
    try {
      const [first] = await storedSamples();
      const file = join(database.dir, 'stored.ndjson.gz');
      writeFileSync(file, gzipSync(`${JSON.stringify({ ...first!, engineVersion: 'an older engine' })}\n`));
      const seeded = await seedSamples(database.db, systemClock, file);
      expect(seeded?.summary.inserted, 'the article is stored').toBe(1);
      const parsed = await database.db.query<{ n: string }>('SELECT count(*)::text AS n FROM parsed_articles');
      expect(parsed[0]?.n, 'without the Article of the other engine').toBe('0');
      expect(await seedSamples(database.db, systemClock, file), 'a store that has articles is not seeded again').toBeUndefined();
    } finally {
      await database.dispose();
    }
  });
});
