/**
 * The article store and the importer on both backends: newer revisions replace older ones, older
 * ones never replace newer ones, parsed Articles are cached per revision; the first-run admin.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { bootstrapAdmin } from '../../../src/service/bootstrap.js';
import { ENGINE_VERSION } from '../../../src/service/content/engine-version.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { corpusDir } from '../../../scripts/conformance/corpus.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { ManualClock, startTestServer } from '../helpers/harness.js';
import { envelope, logIn, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(BACKENDS)('article store on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let parser: EngineClient;
  let store: ArticleStore;
  const clock = new ManualClock();

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    parser = createEngineClient({ threads: 1 }); // a real worker thread
    store = new ArticleStore(database.db, clock);
  });
  afterAll(async () => {
    await parser?.close();
    await database?.dispose();
  });

  const revisionOf = async (project: string, title: string) => (await store.find([title], project))[0]?.revision;

  test.skipIf(skip)('a newer revision replaces the stored one and its parsed Article; an older one is skipped', async () => {
    const one = (revision: number, lead: string) =>
      envelope({ project: 'enwiki', language: 'en', title: 'Revised', revision, html: `<html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/${revision}"><body><section data-mw-section-id="0"><p>${lead}</p></section></body></html>` });
    const run = (e: Record<string, unknown>) => importInputs([writeEnvelopes(freshDir('wikistruct-store'), [e])], { store, engine: parser });

    expect(await run(one(5, 'Five.')), 'first import').toMatchObject({ inserted: 1 });
    expect(await run(one(7, 'Seven.')), 'newer').toMatchObject({ replaced: 1 });
    expect(await run(one(6, 'Six.')), 'older').toMatchObject({ keptNewer: 1, replaced: 0 });
    expect(await revisionOf('enwiki', 'Revised'), 'the newest revision is kept').toBe(7);
    const parsed = await store.parsed('enwiki', 'Revised', 7, ENGINE_VERSION);
    expect((JSON.parse(parsed ?? '{}') as { abstract?: string }).abstract, 'its parsed Article is cached').toBe('Seven.');
    const rows = await database.db.query<{ revision: unknown }>(`SELECT revision FROM parsed_articles WHERE title = 'Revised'`);
    expect(rows.length, 'the replaced revision\'s parsed Article is gone').toBe(1);
  });

  test.skipIf(skip)('concurrent writers of one article: the newest revision wins whatever the order; the same revision again is kept', async () => {
    const order = [4, 9, 1, 10, 3, 7, 2, 8, 6, 5];
    const results = await Promise.all(
      order.map((revision) =>
        store.upsert(
          { project: 'enwiki', title: 'Raced', revision, html: `<p>r${revision}</p>`, meta: {}, origin: 'import' },
          { engineVersion: ENGINE_VERSION, json: JSON.stringify({ revision }) },
        ),
      ),
    );
    expect(results.filter((r) => r === 'inserted').length, 'exactly one insert').toBe(1);
    expect(await revisionOf('enwiki', 'Raced'), 'the newest revision is stored').toBe(10);
    expect(await store.parsed('enwiki', 'Raced', 10, ENGINE_VERSION), 'with its own parsed Article').toBe('{"revision":10}');
    const source = await store.source('enwiki', 'Raced');
    expect(source?.html, 'and its own source').toBe('<p>r10</p>');
    expect(
      await store.upsert({ project: 'enwiki', title: 'Raced', revision: 10, html: 'other', meta: {}, origin: 'import' }),
      'the same revision again changes nothing',
    ).toBe('kept-newer');
  });

  test.skipIf(skip)('a stored revision is a write its listeners hear; caching its parse is not', async () => {
    const heard: string[] = [];
    const unsubscribe = store.onWrite((project, title) => void heard.push(`${project}:${title}`));
    try {
      await store.upsert({ project: 'enwiki', title: 'Heard', revision: 1, html: '<p>x</p>', meta: {}, origin: 'import' });
      expect(heard, 'the upsert').toEqual(['enwiki:Heard']);
      await store.saveParsed('enwiki', 'Heard', 1, ENGINE_VERSION, '{"name":"Heard"}');
      expect(await store.parsed('enwiki', 'Heard', 1, ENGINE_VERSION), 'the parse is cached').toBe('{"name":"Heard"}');
      // The lookup and the catalog keep only `articles` rows: a re-parse must not drop them.
      expect(heard, 'no notice for the cached parse').toEqual(['enwiki:Heard']);
    } finally {
      unsubscribe();
    }
  });

  test.skipIf(skip)('NDJSON.gz: one envelope per line; a newer revision later in the file replaces an earlier one', async () => {
    const { gzipSync } = await import('node:zlib');
    const dir = freshDir('wikistruct-store-ndjson');
    const lines = [
      envelope({ project: 'frwiki', language: 'fr', title: 'Ligne', revision: 3 }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Autre ligne', revision: 1 }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Ligne', revision: 4 }),
    ];
    writeFileSync(join(dir, 'dump.ndjson.gz'), gzipSync(lines.map((l) => JSON.stringify(l)).join('\n')));
    const summary = await importInputs([join(dir, 'dump.ndjson.gz')], { store, engine: parser, concurrency: 1 });
    expect(summary, 'three records: two new, one replacing').toMatchObject({ records: 3, inserted: 2, replaced: 1, failed: 0 });
    expect(await revisionOf('frwiki', 'Ligne'), 'the later, newer revision').toBe(4);
  });

  test.skipIf(skip)('bare HTML needs a project (--project supplies it) and is named after its file; broken records are counted, not fatal', async () => {
    const dir = freshDir('wikistruct-store-html');
    writeFileSync(join(dir, 'Bare_Page.html'), '<html><body><section data-mw-section-id="0"><p>No metadata at all.</p></section></body></html>');
    writeFileSync(join(dir, 'broken.json'), '{"article_body": ');
    const without = await importInputs([dir], { store, engine: parser });
    expect(without.failed, 'both fail without a project').toBe(2);
    expect(without.failures.map((f) => f.message).sort(), 'precise reasons').toEqual([
      'malformed JSON: Unexpected end of JSON input',
      'the record does not say which project it belongs to; pass --project',
    ]);
    const withProject = await importInputs([join(dir, 'Bare_Page.html')], { store, engine: parser, project: 'enwiki' });
    expect(withProject, 'imported with --project').toMatchObject({ inserted: 1, failed: 0 });
    const parsed = await store.parsed('enwiki', 'Bare Page', 0, ENGINE_VERSION);
    expect(JSON.parse(parsed ?? '{}'), 'named after the file, in the given project').toMatchObject({ name: 'Bare Page', is_part_of: { identifier: 'enwiki' }, abstract: 'No metadata at all.' });
    expect((await store.find(['Bare Page'], 'enwiki'))[0]?.language, 'its language from the project').toBe('en');
  });

  test.skipIf(skip)('first start: an admin with a password printed once; later starts create nothing', async () => {
    const printed: string[] = [];
    const created = await bootstrapAdmin(database.db, clock, {}, (t) => void printed.push(t));
    expect(created?.username, 'the admin account').toBe('admin');
    expect(printed.join(''), 'the password is printed').toContain(`password: ${created?.generatedPassword}`);
    expect(await bootstrapAdmin(database.db, clock, {}, (t) => void printed.push(t)), 'second start: nothing').toBeUndefined();
    expect(printed.length, 'printed only once').toBe(1);

    const server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), clock, offline: true, content: { parseThreads: 1 } });
    try {
      const admin = await logIn(server, 'admin', created?.generatedPassword ?? '');
      expect((await admin.contents('Revised')).status, 'the admin can fetch an article at once').toBe(200);
    } finally {
      await server.close();
    }
  });
});

const corpus = corpusDir();
describe.skipIf(corpus === undefined || !existsSync(join(corpus ?? '', 'articles')))('importing the corpus envelopes', () => {
  test('every envelope is stored under its project and title, with its revision', async () => {
    // What the envelopes themselves say (the corpus grows: 7 envelopes, then 12), read apart from the importer.
    const dir = join(corpus!, 'articles');
    const envelopes = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { name: string; is_part_of: { identifier: string }; version: { identifier: number } });
    expect(envelopes.length, 'the corpus holds envelopes').toBeGreaterThanOrEqual(12);
    const expected = envelopes.map((e) => `${e.is_part_of.identifier}:${e.name}:${e.version.identifier}`).sort();
    const backend = BACKENDS[0]!;
    const database = await backend.open();
    const parser = createEngineClient({ threads: 2 });
    try {
      const store = new ArticleStore(database.db, new ManualClock());
      const summary = await importInputs([dir], { store, engine: parser });
      expect(summary, 'every envelope imported').toMatchObject({ records: envelopes.length, inserted: envelopes.length, failed: 0 });
      const rows = await store.find([...new Set(envelopes.map((e) => e.name))]);
      expect(rows.map((r) => `${r.project}:${r.title}:${r.revision}`).sort(), 'keyed by project and title, with the revision').toEqual(expected);
      // Two wikis, one title: both kept apart.
      expect(rows.filter((r) => r.title === 'Albert Einstein').map((r) => r.project).sort()).toEqual(['dewiki', 'enwiki', 'enwikiversity', 'simplewiki']);
    } finally {
      await parser.close();
      await database.dispose();
    }
  });
});
