/**
 * The Enterprise endpoints beside structured contents, end to end over real sockets on both
 * storage backends: /v2/articles (stored, fetched from the fake wiki, bare HTML), the metadata
 * endpoints, and structured snapshots from build to download, byte ranges and unpacking. The
 * real app, real access tokens, articles imported from real files through the importer.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ArticleSchema } from '../../../src/schema/article.js';
import { EnterpriseArticleModel } from '../../../src/service/content/enterprise/models.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { runSnapshotBuildCommand } from '../../../src/service/snapshots/command.js';
import { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, HOUR, startTestServer, type TestServer } from '../helpers/harness.js';
import { call, ndjsonLines, untar, type CallInit } from './enterprise-support.js';
import { envelope, logIn, pageHtml, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const EINSTEIN = [
  envelope({ project: 'enwiki', language: 'en', title: 'Albert Einstein', revision: 10 }),
  envelope({ project: 'simplewiki', language: 'en', title: 'Albert Einstein', revision: 11 }),
  envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 12 }),
];
/** Titles whose byte order differs from a locale's order ("Zebra" < "apple" < "Éclair" in bytes). */
const MORE = [
  envelope({ project: 'enwiki', language: 'en', title: 'Zebra', revision: 20 }),
  envelope({ project: 'enwiki', language: 'en', title: 'Éclair', revision: 21 }),
  { ...envelope({ project: 'enwiki', language: 'en', title: 'Apple', revision: 22 }), namespace: { identifier: 0 }, watchers_count: 7, categories: 'not a list' },
];

describe.each(BACKENDS)('Enterprise endpoints on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let wiki: FakeWiki;
  let parser: EngineClient;
  let token: string;
  let snapshots: string;
  const as = (path: string, init: CallInit = {}) => call(server.url, path, { token, ...init });
  const articles = (json: unknown) => json as Record<string, unknown>[];
  const projectsOf = (json: unknown) => articles(json).map((a) => (a['is_part_of'] as { identifier: string }).identifier);

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    snapshots = join(database.dir, 'snapshots');
    wiki = await FakeWiki.start([{ title: 'Josephine Baker', html: pageHtml('enwiki', 'Josephine Baker', 501), id: 50, revision: 501 }]);
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      content: {
        parseThreads: 1,
        rateLimit: { burst: 10_000, perSecond: 10_000 },
        snapshotsDir: snapshots,
        wiki: { resolveOrigin: wiki.resolveOrigin, contact: 'tests', baseDelayMs: 5, maxDelayMs: 20, attemptTimeoutMs: 400, deadlineMs: 800, breakerThreshold: 0 },
      },
    });
    parser = createEngineClient({ threads: 1 });
    const store = new ArticleStore(database.db, server.clock);
    const dir = writeEnvelopes(freshDir('wikistruct-enterprise'), [...EINSTEIN, ...MORE]);
    // A bare Parsoid page: no metadata at all, named after its file, project from --project.
    const bare = freshDir('wikistruct-enterprise-bare');
    writeFileSync(join(bare, 'Bare_page.html'), pageHtml('frwiki', 'Bare page', 30));
    expect(await importInputs([dir], { store, engine: parser }), 'envelopes imported').toMatchObject({ records: 6, inserted: 6, failed: 0 });
    expect(await importInputs([bare], { store, engine: parser, project: 'frwiki' }), 'bare HTML imported').toMatchObject({ records: 1, inserted: 1, failed: 0 });
    const { username, password } = await addUser(database.db, server.clock);
    token = (await logIn(server, username, password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await wiki?.close();
    await database?.dispose();
  });

  describe('/v2/articles/{name}', () => {
    test.skipIf(skip)('a stored article in every project, in the Enterprise Article model, with its body as stored', async () => {
      const reply = await as('/v2/articles/Albert_Einstein');
      expect(reply.status, 'found').toBe(200);
      expect(reply.headers.get('content-type'), 'JSON').toMatch(/^application\/json/);
      expect(reply.headers.get('etag'), 'an ETag').toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(projectsOf(reply.json), 'one per project, by project code').toEqual(['enwiki', 'frwiki', 'simplewiki']);
      for (const article of articles(reply.json)) expect(EnterpriseArticleModel.safeParse(article).success, 'each fits the model').toBe(true);
      const [en] = articles(reply.json);
      const source = EINSTEIN[0]!;
      expect(en, 'the metadata of the envelope, the body as stored').toEqual({
        name: 'Albert Einstein',
        identifier: source['identifier'],
        url: source['url'],
        date_modified: source['date_modified'],
        version: { identifier: 10 },
        namespace: { identifier: 0 },
        in_language: { identifier: 'en' },
        is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
        license: source['license'],
        article_body: { html: (source['article_body'] as { html: string }).html },
      });
    });

    test.skipIf(skip)('envelope metadata that does not fit the model is left out; what fits is kept', async () => {
      const reply = await as('/v2/articles/Apple');
      const [apple] = articles(reply.json);
      expect([apple?.['watchers_count'], 'categories' in apple!], 'watchers_count kept, a malformed categories dropped').toEqual([7, false]);
    });

    test.skipIf(skip)('an article stored from bare HTML gets its name, URL, project and language from the store', async () => {
      const reply = await as('/v2/articles/Bare_page');
      expect(reply.status, 'found').toBe(200);
      const { article_body: body, ...rest } = articles(reply.json)[0]!;
      expect(rest, 'derived metadata').toEqual({
        name: 'Bare page',
        url: 'https://fr.wikipedia.org/wiki/Bare_page',
        version: { identifier: 30 },
        namespace: { identifier: 0 },
        in_language: { identifier: 'fr' },
        is_part_of: { identifier: 'frwiki', url: 'https://fr.wikipedia.org' },
      });
      expect(Object.keys(body as object), 'the HTML as imported').toEqual(['html']);
    });

    test.skipIf(skip)('filters, limit and dot fields as in structured contents; GET and POST agree to the byte and the ETag', async () => {
      const fields = ['name', 'version.identifier', 'is_part_of.identifier'];
      const post = await as('/v2/articles/Albert_Einstein', { body: { fields, filters: [{ field: 'in_language.identifier', value: 'en' }], limit: 1 } });
      expect(post.json, 'the first English project, those fields only').toEqual([{ name: 'Albert Einstein', version: { identifier: 10 }, is_part_of: { identifier: 'enwiki' } }]);
      const get = await as(`/v2/articles/Albert_Einstein?fields=${fields.join(',')}&filters=in_language.identifier:en&limit=1`);
      expect([get.text, get.headers.get('etag')], 'GET means the same').toEqual([post.text, post.headers.get('etag')]);
      const fr = await as('/v2/articles/Albert_Einstein', { body: { filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }], fields: ['article_body.wikitext', 'name'] } });
      expect(fr.json, 'a field the article lacks is left out').toEqual([{ name: 'Albert Einstein', article_body: {} }]);
      const none = await as('/v2/articles/Albert_Einstein', { body: { filters: [{ field: 'in_language.identifier', value: 'fr' }, { field: 'is_part_of.identifier', value: 'enwiki' }] } });
      expect([none.status, none.json], 'contradictory filters: 404').toEqual([404, { message: 'no article "Albert Einstein" for project enwiki and language fr', status: 404 }]);
    });

    test.skipIf(skip)('bad requests are 422s naming the problem', async () => {
      const cases: [CallInit & { path?: string }, string][] = [
        [{ body: { fields: ['colour'] } }, 'fields.0: unknown Article field "colour"; expected one of name, identifier, abstract, url, date_created, date_modified, date_previously_modified, version, previous_version, watchers_count, namespace, in_language, is_part_of, main_entity, additional_entities, categories, templates, redirects, protection, license, visibility, event, image, article_body'],
        [{ body: { fields: ['article_body.text'] } }, 'fields.0: unknown field "text" in "article_body"; expected one of html, wikitext'],
        [{ body: { limit: 0 } }, 'limit: must be an integer from 1 to 10'],
        [{ body: { filters: [{ field: 'name', value: 'x' }] } }, 'filters.0.field: unknown filter field; expected one of is_part_of.identifier, in_language.identifier'],
        [{ body: { sort: 'name' } }, 'sort: unexpected field'],
        [{ rawBody: '{"limit": ', headers: { 'content-type': 'application/json' } }, 'request body is not valid JSON'],
        [{ path: '/v2/articles/Albert_Einstein?colour=red' }, 'colour: unexpected query parameter; expected one of limit, fields, filters'],
      ];
      for (const [init, message] of cases) {
        const reply = await as(init.path ?? '/v2/articles/Albert_Einstein', init);
        expect(reply.json, JSON.stringify(init)).toEqual({ message, status: 422 });
      }
    });

    test.skipIf(skip)('If-None-Match with the ETag answers 304; a large reply is compressed on request', async () => {
      const first = await as('/v2/articles/Albert_Einstein');
      const again = await as('/v2/articles/Albert_Einstein', { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect([again.status, again.text], '304, no body').toEqual([304, '']);
      const raw = await fetch(`${server.url}/v2/articles/Albert_Einstein`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
      expect(raw.headers.get('content-encoding'), 'gzip when asked').toBe('gzip');
      expect(await raw.text(), 'the same JSON').toBe(first.text);
    });

    test.skipIf(skip)('an article not stored is fetched from its wiki, stored, and answered with the wiki\'s HTML', async () => {
      const reply = await as('/v2/articles/Josephine_Baker', { body: { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }] } });
      expect(reply.status, 'fetched').toBe(200);
      const [article] = articles(reply.json);
      expect([article?.['name'], article?.['identifier'], article?.['version'], article?.['article_body']], 'the fetched revision and HTML').toEqual([
        'Josephine Baker',
        50,
        { identifier: 501 },
        { html: pageHtml('enwiki', 'Josephine Baker', 501) },
      ]);
      expect(wiki.count('Josephine Baker', 'html'), 'one fetch').toBe(1);
      expect((await as('/v2/articles/Josephine_Baker')).status, 'again').toBe(200);
      expect(wiki.count('Josephine Baker', 'html'), 'served from the store afterwards').toBe(1);
      const missing = await as('/v2/articles/Nowhere_at_all');
      expect([missing.status, (missing.json as { status: number }).status], 'nowhere: 404').toEqual([404, 404]);
    });

    test.skipIf(skip)('no token, a bad token: 401 with the Bearer challenge; a bad title: 400', async () => {
      const none = await call(server.url, '/v2/articles/Albert_Einstein');
      expect([none.status, none.headers.get('www-authenticate'), none.json], 'no token').toEqual([
        401,
        'Bearer realm="wikistruct"',
        { message: 'an access token is required: Authorization: Bearer <access_token>', status: 401 },
      ]);
      const bad = await call(server.url, '/v2/articles/Albert_Einstein', { token: 'not.a.token' });
      expect([bad.status, bad.headers.get('www-authenticate')], 'bad token').toEqual([401, 'Bearer realm="wikistruct", error="invalid_token"']);
      const title = await as('/v2/articles/Foo%5BBar%5D');
      expect(title.json, 'illegal character').toEqual({ message: 'invalid title "Foo%5BBar%5D": character "[" is not allowed in titles', status: 400 });
    });
  });

  describe('metadata: /v2/codes, /v2/projects, /v2/languages, /v2/namespaces', () => {
    test.skipIf(skip)('codes: the project types, one by identifier, with fields and filters', async () => {
      const all = await as('/v2/codes');
      expect((all.json as { identifier: string }[]).map((c) => c.identifier), 'every family: those grammar names, then the chapters').toEqual([
        'wiki',
        'wiktionary',
        'wikibooks',
        'wikinews',
        'wikiquote',
        'wikisource',
        'wikiversity',
        'wikivoyage',
        'wikimedia',
      ]);
      const one = await as('/v2/codes/wiktionary', { body: { fields: ['name'] } });
      expect(one.json, 'one, narrowed').toEqual({ name: 'Wiktionary' });
      const filtered = await as('/v2/codes?filters=name:Wikivoyage&fields=identifier');
      expect(filtered.json, 'filtered by name').toEqual([{ identifier: 'wikivoyage' }]);
      const missing = await as('/v2/codes/wikiwhat');
      expect(missing.json, '404 naming what exists').toEqual({ message: 'no project code "wikiwhat"; expected one of wiki, wiktionary, wikibooks, wikinews, wikiquote, wikisource, wikiversity, wikivoyage, wikimedia', status: 404 });
    });

    test.skipIf(skip)('projects: every open Wikimedia wiki with its sitename, code, url and language; any placeable code by identifier', async () => {
      const all = (await as('/v2/projects')).json as { identifier: string; code?: string; name?: string }[];
      // ../shared/data/README.md: 842 open, public wikis (wikis.json → _meta.open_public).
      expect(all.length, 'every open, public Wikimedia wiki').toBe(842);
      expect(all, 'described from the bundled table and the engine\'s per-wiki facts').toEqual(
        expect.arrayContaining([
          { identifier: 'enwiki', code: 'wiki', name: 'Wikipedia', url: 'https://en.wikipedia.org', in_language: { identifier: 'en', name: 'English', alternate_name: 'English', direction: 'ltr' } },
          { identifier: 'simplewiki', code: 'wiki', name: 'Wikipedia', url: 'https://simple.wikipedia.org', in_language: { identifier: 'en', name: 'English', alternate_name: 'English', direction: 'ltr' } },
          { identifier: 'frwiki', code: 'wiki', name: 'Wikipédia', url: 'https://fr.wikipedia.org', in_language: { identifier: 'fr', name: 'French', alternate_name: 'français', direction: 'ltr' } },
          { identifier: 'be_x_oldwiki', code: 'wiki', name: 'Вікіпэдыя', url: 'https://be-tarask.wikipedia.org', in_language: expect.objectContaining({ identifier: 'be-tarask', alternate_name: 'беларуская (тарашкевіца)', direction: 'ltr' }) },
          { identifier: 'commonswiki', name: 'Wikimedia Commons', url: 'https://commons.wikimedia.org', in_language: { identifier: 'en', name: 'English', alternate_name: 'English', direction: 'ltr' } },
        ]),
      );
      expect(all.map((p) => p.identifier), 'by code unit').toEqual(all.map((p) => p.identifier).sort());
      expect(all.some((p) => p.identifier === 'aawiki'), 'a closed wiki is not listed').toBe(false);
      const counts = Object.fromEntries(['wiki', 'wiktionary', 'wikivoyage'].map((code) => [code, all.filter((p) => p.code === code).length]));
      expect(counts, 'per family, as ../shared/data counts the open ones').toEqual({ wiki: 350, wiktionary: 174, wikivoyage: 27 });
      const arabic = await as('/v2/projects', { body: { filters: [{ field: 'in_language.identifier', value: 'ar' }], fields: ['identifier'] } });
      expect(arabic.json, 'filter on a nested field').toEqual(['arwiki', 'arwikibooks', 'arwikiquote', 'arwikisource', 'arwikiversity', 'arwiktionary'].map((identifier) => ({ identifier })));
      const de = await as('/v2/projects/dewikivoyage?fields=identifier,code,url');
      expect(de.json, 'one').toEqual({ identifier: 'dewikivoyage', code: 'wikivoyage', url: 'https://de.wikivoyage.org' });
      const placeable = await as('/v2/projects/xxwikivoyage?fields=identifier,code,url');
      expect(placeable.json, 'a code no table lists but grammar places').toEqual({ identifier: 'xxwikivoyage', code: 'wikivoyage', url: 'https://xx.wikivoyage.org' });
      const missing = await as('/v2/projects/notaproject');
      expect(missing.status, 'a code no wiki has: 404').toBe(404);
    });

    test.skipIf(skip)('languages: of every open Wikimedia wiki and of the stored articles, named', async () => {
      const all = (await as('/v2/languages')).json as { identifier: string; name?: string; alternate_name?: string; direction?: string }[];
      expect(all.length, "the 351 content languages of the open wikis (../shared/data/wikis.json → lang)").toBe(351);
      expect(all, 'named: grammar/metadata.json, else ICU\'s English name and MediaWiki\'s autonym and direction').toEqual(
        expect.arrayContaining([
          { identifier: 'en', name: 'English', alternate_name: 'English', direction: 'ltr' },
          { identifier: 'fr', name: 'French', alternate_name: 'français', direction: 'ltr' },
          { identifier: 'ckb', name: 'Central Kurdish', alternate_name: 'کوردی', direction: 'rtl' },
          { identifier: 'yi', name: 'Yiddish', alternate_name: 'ייִדיש', direction: 'rtl' },
        ]),
      );
      expect(all.filter((l) => l.direction === 'rtl').length, 'right-to-left ones').toBeGreaterThan(10);
      // Four codes have neither an autonym in MediaWiki's Names.php nor (in this ICU) an English name.
      const unnamed = all.filter((l) => l.name === undefined && l.alternate_name === undefined).map((l) => l.identifier);
      expect(['bol', 'cbk', 'isv', 'ppl'], 'every other one named').toEqual(expect.arrayContaining(unnamed));
      expect((await as('/v2/languages/ar')).json, 'a right-to-left language from grammar').toEqual({ identifier: 'ar', name: 'Arabic', alternate_name: 'العربية', direction: 'rtl' });
      expect((await as('/v2/languages/zz')).status, 'unknown: 404').toBe(404);
    });

    test.skipIf(skip)('namespaces: from grammar; the identifier is an integer', async () => {
      const all = await as('/v2/namespaces?fields=identifier,name');
      expect(all.json, 'four namespaces').toEqual([
        { identifier: 0, name: 'Article' },
        { identifier: 6, name: 'File' },
        { identifier: 10, name: 'Template' },
        { identifier: 14, name: 'Category' },
      ]);
      expect((await as('/v2/namespaces', { body: { filters: [{ field: 'identifier', value: 14 }], fields: ['name'] } })).json, 'filter by number').toEqual([{ name: 'Category' }]);
      expect((await as('/v2/namespaces/10?fields=name')).json, 'one').toEqual({ name: 'Template' });
      expect((await as('/v2/namespaces/99')).status, 'unknown: 404').toBe(404);
      expect((await as('/v2/namespaces/main')).json, 'not an integer: 422').toEqual({ message: 'identifier: a namespace identifier is an integer, got "main"', status: 422 });
    });

    test.skipIf(skip)('unknown fields, filter fields and parameters are 422s; no token is a 401', async () => {
      expect((await as('/v2/projects', { body: { fields: ['colour'] } })).json, 'field').toEqual({
        message: 'fields.0: unknown Project field "colour"; expected one of identifier, code, name, url, in_language',
        status: 422,
      });
      expect((await as('/v2/languages', { body: { filters: [{ field: 'script', value: 'Latn' }] } })).json, 'filter field').toEqual({
        message: 'filters.0.field: unknown Language field "script"; expected one of identifier, name, alternate_name, direction',
        status: 422,
      });
      expect((await as('/v2/codes?limit=1')).json, 'limit is not a parameter of a list').toEqual({ message: 'limit: unexpected field', status: 422 });
      expect((await as('/v2/codes/wiki', { body: { filters: [] } })).json, 'an item takes no filters').toEqual({ message: 'filters: unexpected field', status: 422 });
      for (const path of ['/v2/codes', '/v2/projects/enwiki', '/v2/languages', '/v2/namespaces/0', '/v2/snapshots/structured-contents', '/v2/snapshots/structured-contents/enwiki_namespace_0/download']) {
        expect((await call(server.url, path)).status, `${path} needs a token`).toBe(401);
      }
    });
  });

  describe('structured snapshots', () => {
    test.skipIf(skip)('nothing built: an empty list and 404s', async () => {
      expect((await as('/v2/snapshots/structured-contents')).json, 'empty').toEqual([]);
      expect((await as('/v2/snapshots/structured-contents/enwiki_namespace_0')).json, 'info').toEqual({
        message: 'no structured snapshot "enwiki_namespace_0" (the server builds snapshots of stored projects in the background, or build them with `wikistruct snapshot build`)',
        status: 404,
      });
      expect((await as('/v2/snapshots/structured-contents/enwiki/download')).json, 'a malformed identifier').toEqual({
        message: 'no structured snapshot "enwiki": identifiers look like enwiki_namespace_0',
        status: 404,
      });
    });

    test.skipIf(skip)('built: list → info → download (whole, HEAD, two ranges) → every line is the Article served on demand', async () => {
      server.clock.advance(HOUR);
      const built = await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: snapshots, jobs: 1 });
      expect(built.ok, built.lines.join('\n')).toBe(true);
      expect(built.lines.map((l) => l.replace(/version \w+ in [\d.]+ s/, 'version V in T s').replace(/\d+ bytes/, 'N bytes')), 'one line per snapshot, structured then regular').toEqual([
        'built enwiki_namespace_0: 5 articles, N bytes, version V in T s',
        'built enwiki_namespace_0 (articles): 5 articles, N bytes, version V in T s',
        'built frwiki_namespace_0: 2 articles, N bytes, version V in T s',
        'built frwiki_namespace_0 (articles): 2 articles, N bytes, version V in T s',
        'built simplewiki_namespace_0: 1 articles, N bytes, version V in T s',
        'built simplewiki_namespace_0 (articles): 1 articles, N bytes, version V in T s',
      ]);

      const list = await as('/v2/snapshots/structured-contents');
      expect((list.json as { identifier: string }[]).map((s) => s.identifier), 'listed').toEqual(['enwiki_namespace_0', 'frwiki_namespace_0', 'simplewiki_namespace_0']);
      const english = await as('/v2/snapshots/structured-contents', { body: { filters: [{ field: 'in_language.identifier', value: 'en' }], fields: ['identifier'] } });
      expect(english.json, 'filtered by language').toEqual([{ identifier: 'enwiki_namespace_0' }, { identifier: 'simplewiki_namespace_0' }]);
      const fr = await as('/v2/snapshots/structured-contents?filters=is_part_of.identifier:frwiki&fields=identifier,namespace');
      expect(fr.json, 'filtered by project').toEqual([{ identifier: 'frwiki_namespace_0', namespace: { identifier: 0 } }]);

      const info = (await as('/v2/snapshots/structured-contents/enwiki_namespace_0')).json as { version: string; size: { value: number; unit_text: string } };
      expect(info, 'the info').toEqual({
        identifier: 'enwiki_namespace_0',
        version: expect.stringMatching(/^[0-9a-f]{32}$/),
        date_modified: server.clock.now().toISOString(),
        is_part_of: { identifier: 'enwiki' },
        in_language: { identifier: 'en' },
        namespace: { identifier: 0 },
        size: { value: expect.any(Number), unit_text: 'MB' },
        chunks: ['enwiki_namespace_0_chunk_0'],
      });
      expect((await as('/v2/snapshots/structured-contents/enwiki_namespace_0', { body: { fields: ['size.value'] } })).json, 'info with fields').toEqual({ size: { value: info.size.value } });

      const download = '/v2/snapshots/structured-contents/enwiki_namespace_0/download';
      const head = await as(download, { method: 'HEAD' });
      expect([head.status, head.bytes.length], 'HEAD: no body').toEqual([200, 0]);
      const length = Number(head.headers.get('content-length'));
      const whole = await as(download);
      expect(whole.status, '200').toBe(200);
      expect([whole.headers.get('content-type'), whole.headers.get('accept-ranges'), whole.headers.get('etag'), whole.headers.get('content-disposition')], 'download headers').toEqual([
        'application/gzip',
        'bytes',
        `"${info.version}"`,
        'attachment; filename="enwiki_namespace_0.tar.gz"',
      ]);
      expect(whole.headers.get('content-encoding'), 'never compressed again').toBeNull();
      expect(whole.bytes.length, 'the length HEAD gives').toBe(length);
      // As the Enterprise API writes it: megabytes (10^6 bytes) to three decimals.
      expect(Math.abs(info.size.value * 1e6 - length), 'the size the info gives, in MB').toBeLessThanOrEqual(500);
      expect(Number(info.size.value.toFixed(3)), 'to three decimals').toBe(info.size.value);
      expect(createHash('sha256').update(whole.bytes).digest('hex').slice(0, 32), 'the version is a hash of the bytes').toBe(info.version);

      // Two pieces, as a parallel downloader fetches them, with If-Range naming the version.
      const cut = Math.floor(whole.bytes.length / 2);
      const first = await as(download, { headers: { range: `bytes=0-${cut - 1}`, 'if-range': `"${info.version}"` } });
      const second = await as(download, { headers: { range: `bytes=${cut}-`, 'if-range': `"${info.version}"` } });
      expect([first.status, first.headers.get('content-range'), first.headers.get('content-length')], 'first piece').toEqual([206, `bytes 0-${cut - 1}/${whole.bytes.length}`, String(cut)]);
      expect([second.status, second.headers.get('content-range')], 'second piece').toEqual([206, `bytes ${cut}-${whole.bytes.length - 1}/${whole.bytes.length}`]);
      expect(Buffer.concat([first.bytes, second.bytes]).equals(whole.bytes), 'reassembled: the same bytes').toBe(true);
      const tail = await as(download, { headers: { range: 'bytes=-10' } });
      expect([tail.status, tail.bytes.equals(whole.bytes.subarray(-10))], 'a suffix range').toEqual([206, true]);
      const beyond = await as(download, { headers: { range: `bytes=${whole.bytes.length}-` } });
      expect([beyond.status, beyond.headers.get('content-range'), beyond.json], 'unsatisfiable: 416').toEqual([
        416,
        `bytes */${whole.bytes.length}`,
        { message: `range not satisfiable: enwiki_namespace_0.tar.gz is ${whole.bytes.length} bytes`, status: 416 },
      ]);
      const stale = await as(download, { headers: { range: 'bytes=0-9', 'if-range': '"an-older-version"' } });
      expect([stale.status, stale.bytes.length], 'If-Range of another version: the whole file').toEqual([200, whole.bytes.length]);
      const cached = await as(download, { headers: { 'if-none-match': `"${info.version}"` } });
      expect(cached.status, 'If-None-Match: 304').toBe(304);

      // Unpacked: NDJSON in title byte order, each line the Article served on demand, byte for byte.
      const entries = await untar(whole.bytes);
      expect([...entries.keys()], 'one NDJSON entry (under 32 MiB)').toEqual(['enwiki_namespace_0_0.ndjson']);
      const lines = ndjsonLines(entries);
      const names = lines.map((line) => (JSON.parse(line) as { name: string }).name);
      expect(names, 'title byte order').toEqual(['Albert Einstein', 'Apple', 'Josephine Baker', 'Zebra', 'Éclair']);
      for (const line of lines) {
        const article = JSON.parse(line) as { name: string };
        expect(ArticleSchema.safeParse(article).success, `${article.name} validates`).toBe(true);
        const onDemand = await as(`/v2/structured-contents/${encodeURIComponent(article.name.replace(/ /g, '_'))}?filters=is_part_of.identifier:enwiki`);
        expect(onDemand.text, `${article.name}: the same bytes as on demand`).toBe(`[${line}]`);
      }
    });

    test.skipIf(skip)('a rebuild after an import publishes a new version and removes the old file; the list follows', async () => {
      const before = (await as('/v2/snapshots/structured-contents/frwiki_namespace_0')).json as { version: string };
      const dir = writeEnvelopes(freshDir('wikistruct-enterprise-newer'), [envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 99 })]);
      await importInputs([dir], { store: new ArticleStore(database.db, server.clock), engine: parser });
      const built = await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: snapshots, projects: ['frwiki'], jobs: 1 });
      expect(built.lines, 'only frwiki').toEqual([expect.stringMatching(/^built frwiki_namespace_0: 2 articles/), expect.stringMatching(/^built frwiki_namespace_0 \(articles\): 2 articles/)]);
      const after = (await as('/v2/snapshots/structured-contents/frwiki_namespace_0')).json as { version: string };
      expect(after.version, 'a new version').not.toBe(before.version);
      expect(readdirSync(snapshots).filter((f) => f.startsWith('frwiki_namespace_0-')), 'only the new file remains').toEqual([`frwiki_namespace_0-${after.version}.tar.gz`]);
      const lines = ndjsonLines(await untar((await as('/v2/snapshots/structured-contents/frwiki_namespace_0/download')).bytes));
      expect(lines.map((l) => (JSON.parse(l) as { version: { identifier: number } }).version.identifier), 'the newer revision inside').toContain(99);
      const missing = await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: snapshots, projects: ['dewiki'], jobs: 1 });
      expect(missing, 'a project without articles').toEqual({ ok: false, lines: ['no stored articles of dewiki: nothing to build'] });
    });

    test.skipIf(skip)('a sidecar whose file is gone (a directory cleaned by hand) is a 404, never a 500', async () => {
      const info = (await as('/v2/snapshots/structured-contents/simplewiki_namespace_0')).json as { version: string };
      rmSync(join(snapshots, `simplewiki_namespace_0-${info.version}.tar.gz`));
      const reply = await as('/v2/snapshots/structured-contents/simplewiki_namespace_0/download');
      expect(reply.json, 'no file: no snapshot').toEqual({
        message: 'no structured snapshot "simplewiki_namespace_0" (the server builds snapshots of stored projects in the background, or build them with `wikistruct snapshot build`)',
        status: 404,
      });
    });
  });
});
