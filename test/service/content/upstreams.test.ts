/**
 * `--upstream PROJECT=URL` (content/upstream/origins.ts): how a mapping is read, and, on both
 * storage backends over real sockets, a service whose wikis are local fake MediaWikis configured
 * exactly as an operator configures them (no origin replaced in code): a wiki of its own
 * (companywiki, installed at the root) fetched on demand and listed in /v2/projects as its
 * siteinfo names it, and a mirror of a Wikimedia wiki whose articles keep their Wikipedia URLs.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ConfiguredWikis } from '../../../src/service/content/upstream/configured-wikis.js';
import { mergeUpstreams, parseUpstream, parseUpstreamList, UpstreamConfigError } from '../../../src/service/content/upstream/origins.js';
import { UpstreamUnavailable } from '../../../src/service/content/upstream/errors.js';
import { FakeWiki } from '../../support/fake-wiki.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, ManualClock, startTestServer, type TestServer } from '../helpers/harness.js';
import { call } from './enterprise-support.js';
import { logIn, pageHtml } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe('reading PROJECT=URL', () => {
  test('the REST API at /w/rest.php of an origin, or at the rest.php a URL names; api.php beside it', () => {
    expect(parseUpstream('companywiki=https://wiki.example.org')).toEqual({
      project: 'companywiki',
      origin: 'https://wiki.example.org',
      restUrl: 'https://wiki.example.org/w/rest.php',
      apiUrl: 'https://wiki.example.org/w/api.php',
    });
    expect(parseUpstream('companywiki=http://127.0.0.1:8081/'), 'a trailing slash, a port').toMatchObject({ origin: 'http://127.0.0.1:8081', restUrl: 'http://127.0.0.1:8081/w/rest.php' });
    expect(parseUpstream('rootwiki=https://wiki.example.org/rest.php'), 'installed at the root').toMatchObject({ restUrl: 'https://wiki.example.org/rest.php', apiUrl: 'https://wiki.example.org/api.php' });
    expect(parseUpstream('docs=https://example.org/mediawiki/rest.php'), 'under a path').toMatchObject({ restUrl: 'https://example.org/mediawiki/rest.php', apiUrl: 'https://example.org/mediawiki/api.php' });
    expect(parseUpstream('docs=https://example.org/wikis/docs'), 'a path without rest.php: the origin-like default below it').toMatchObject({ restUrl: 'https://example.org/wikis/docs/w/rest.php' });
  });

  test('what cannot be read is refused with a message naming it', () => {
    const reason = (spec: string) => {
      try {
        parseUpstream(spec);
        return 'accepted';
      } catch (error) {
        expect(error, spec).toBeInstanceOf(UpstreamConfigError);
        return (error as Error).message;
      }
    };
    expect(reason('https://wiki.example.org')).toBe('--upstream: "https://wiki.example.org" is not PROJECT=URL (e.g. companywiki=https://wiki.example.org)');
    expect(reason('Company Wiki=https://wiki.example.org')).toBe('--upstream: "Company Wiki" is not a project code (lower-case letters, digits and _, starting with a letter, e.g. companywiki)');
    expect(reason('companywiki=wiki.example.org')).toBe('--upstream: companywiki: "wiki.example.org" is not a URL (e.g. https://wiki.example.org)');
    expect(reason('companywiki=ftp://wiki.example.org')).toBe('--upstream: companywiki: the URL must be http:// or https://, not ftp://');
    expect(reason('companywiki=https://me:secret@wiki.example.org')).toBe('--upstream: companywiki: the URL must not hold a user name or password');
    expect(reason('companywiki=https://wiki.example.org/?x=1')).toBe('--upstream: companywiki: the URL must not have a query or fragment');
  });

  test('lists: separated by spaces, commas or lines, # comments; a later source wins for its project', () => {
    const file = parseUpstreamList('# our wikis\ncompanywiki=https://a.example.org  # the main one\n\nenwiki=http://mirror.example.org, docs=https://d.example.org\n', 'upstreams.txt');
    expect(file.map((u) => [u.project, u.origin])).toEqual([
      ['companywiki', 'https://a.example.org'],
      ['enwiki', 'http://mirror.example.org'],
      ['docs', 'https://d.example.org'],
    ]);
    expect(() => parseUpstreamList('companywiki', 'upstreams.txt'), 'the source named').toThrow('upstreams.txt: "companywiki" is not PROJECT=URL');
    const merged = mergeUpstreams(parseUpstreamList('companywiki=https://env.example.org', 'env'), file, [parseUpstream('docs=https://flag.example.org')]);
    expect(merged.map((u) => [u.project, u.origin]), 'by project; env < file < flags').toEqual([
      ['companywiki', 'https://a.example.org'],
      ['docs', 'https://flag.example.org'],
      ['enwiki', 'http://mirror.example.org'],
    ]);
  });
});

describe('a configured wiki in the catalog, as it names itself', () => {
  test('asked once; a wiki that does not answer is listed bare and asked again only after the retry window', async () => {
    const clock = new ManualClock();
    const asked: string[] = [];
    let up = false;
    const client = {
      fetchSiteinfo: async (project: string) => {
        asked.push(project);
        if (!up) throw new UpstreamUnavailable(project, '(siteinfo)', 'down');
        return { siteName: 'Company Wiki', language: 'de', namespaces: [], aliases: [], magicWords: [], interwiki: [] };
      },
    };
    const wikis = new ConfiguredWikis({ upstreams: [parseUpstream('companywiki=https://wiki.example.org'), parseUpstream('enwiki=https://mirror.example.org')], client, clock, retryMs: 60_000 });
    expect(await wikis.projects(), 'down: code and URL; a Wikimedia code (a mirror) is not listed here').toEqual([{ identifier: 'companywiki', url: 'https://wiki.example.org' }]);
    up = true;
    clock.advance(59_999);
    await wikis.projects();
    expect(asked, 'within the window: not asked again').toEqual(['companywiki']);
    clock.advance(1);
    expect(await wikis.projects(), 'after it: asked, and named').toEqual([
      { identifier: 'companywiki', name: 'Company Wiki', url: 'https://wiki.example.org', in_language: { identifier: 'de', name: 'German', alternate_name: 'Deutsch', direction: 'ltr' } },
    ]);
    clock.advance(10 * 60_000);
    await wikis.projects();
    expect(asked, 'an answer is kept').toEqual(['companywiki', 'companywiki']);
  });
});

describe.each(BACKENDS)('wikis configured with --upstream, on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let company: FakeWiki;
  let mirror: FakeWiki;
  let silent: FakeWiki;
  let token: string;
  const as = (path: string) => call(server.url, path, { token });

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    // A wiki installed at the root (/rest.php, /api.php), written in Hebrew, right to left.
    company = await FakeWiki.start([{ title: 'Handbook', html: pageHtml('companywiki', 'Handbook', 7), id: 3, revision: 7 }], { scriptPath: '', siteinfo: { sitename: 'ויקי החברה', lang: 'he', rtl: true } });
    mirror = await FakeWiki.start([{ title: 'Mirrored Page', html: pageHtml('enwiki', 'Mirrored Page', 40), id: 4, revision: 40 }]);
    silent = await FakeWiki.start();
    silent.fail({ kind: 'status', status: 503 });
    const upstreams = [parseUpstream(`companywiki=${company.origin}/rest.php`), parseUpstream(`enwiki=${mirror.origin}`), parseUpstream(`quietwiki=${silent.origin}`)];
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      content: { parseThreads: 1, rateLimit: { burst: 10_000, perSecond: 10_000 }, wiki: { upstreams, contact: 'tests', baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 1, breakerThreshold: 0 } },
    });
    const { username, password } = await addUser(database.db, server.clock);
    token = (await logIn(server, username, password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await company?.close();
    await mirror?.close();
    await silent?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('a wiki of its own: its articles fetched from it and stored under its code', async () => {
    const reply = await as('/v2/structured-contents/Handbook?filters=is_part_of.identifier:companywiki&fields=name,version.identifier,is_part_of.identifier,abstract');
    expect(reply.status, 'fetched').toBe(200);
    expect(reply.json).toEqual([{ name: 'Handbook', version: { identifier: 7 }, is_part_of: { identifier: 'companywiki' }, abstract: 'Lead of Handbook. Paris' }]);
    expect(company.count('Handbook'), 'both routes of its REST API, at the root').toBe(2);
    const article = await as('/v2/articles/Handbook?filters=is_part_of.identifier:companywiki&fields=url,is_part_of.url');
    expect(article.json, 'its URLs are its own').toEqual([{ url: `${company.origin}/wiki/Handbook`, is_part_of: { url: company.origin } }]);
    expect(company.count('Handbook'), 'stored: not fetched again').toBe(2);
    const language = await as('/v2/structured-contents/Handbook?filters=is_part_of.identifier:companywiki&fields=in_language');
    expect(language.json, 'written in the language its siteinfo reports, not one read from its code ("company")').toEqual([{ in_language: { identifier: 'he' } }]);
    const languages = ((await as('/v2/languages?fields=identifier')).json as { identifier: string }[]).map((l) => l.identifier);
    expect(languages.includes('company'), 'no language made up from the code').toBe(false);
  });

  test.skipIf(skip)('a mirror of a Wikimedia wiki: fetched from the mirror, with the Wikimedia wiki\'s URLs', async () => {
    const reply = await as('/v2/articles/Mirrored_Page?filters=is_part_of.identifier:enwiki&fields=name,url');
    expect(reply.json).toEqual([{ name: 'Mirrored Page', url: 'https://en.wikipedia.org/wiki/Mirrored_Page' }]);
    expect(mirror.count('Mirrored Page'), 'from the mirror').toBe(2);
  });

  test.skipIf(skip)('/v2/projects lists a wiki of its own by the name and language its siteinfo reports; one that does not answer by its code', async () => {
    const all = (await as('/v2/projects')).json as { identifier: string }[];
    expect(all.find((p) => p.identifier === 'companywiki'), 'named by its siteinfo').toEqual({
      identifier: 'companywiki',
      name: 'ויקי החברה',
      url: company.origin,
      in_language: { identifier: 'he', name: 'Hebrew', alternate_name: 'עברית', direction: 'rtl' },
    });
    expect(all.find((p) => p.identifier === 'quietwiki'), 'a wiki that does not answer: code and URL').toEqual({ identifier: 'quietwiki', url: silent.origin });
    expect(all.filter((p) => p.identifier === 'enwiki'), 'a mirror: once, as the table describes it').toEqual([expect.objectContaining({ url: 'https://en.wikipedia.org', name: 'Wikipedia' })]);
    expect(all.length, 'every open Wikimedia wiki and the two of their own').toBe(842 + 2);
    expect((await as('/v2/projects/companywiki?fields=name')).json, 'one by identifier').toEqual({ name: 'ויקי החברה' });
    const asked = company.requests.filter((r) => r.route === 'siteinfo').length;
    await as('/v2/projects');
    expect(company.requests.filter((r) => r.route === 'siteinfo').length, 'siteinfo kept: not asked again').toBe(asked);
  });
});
