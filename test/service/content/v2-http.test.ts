/**
 * What real clients send to /v2/structured-contents (issue #10), over real sockets on both
 * storage backends: `limit`, `fields` in dot notation, GET with query parameters (the same
 * meaning, ETag, 304, compression and 422s as POST), titles up to MediaWiki's 255 bytes, the
 * WWW-Authenticate challenge, and text the storage cannot hold refused before any query.
 */
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { call, type Answer } from './enterprise-support.js';
import { byProject, envelope, logIn, pageHtml, writeEnvelopes, type Caller } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** An article with an infobox, so that "infoboxes.name" has something to pick. */
function infoboxHtml(revision: number): string {
  const infobox = `<table class="infobox vcard" about="#mwt1" typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"Infobox person","href":"./Template:Infobox_person"},"params":{},"i":0}}]}'><tbody><tr><th colspan="2" class="infobox-above">Ada</th></tr><tr><th class="infobox-label">Born</th><td class="infobox-data">1815</td></tr></tbody></table>`;
  return pageHtml('enwiki', 'Ada Lovelace', revision).replace('<section data-mw-section-id="0">', `<section data-mw-section-id="0">${infobox}`);
}

describe.each(BACKENDS)('/v2 as real clients use it, on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let database: TestDatabase;
  let server: TestServer;
  let parser: EngineClient;
  let caller: Caller;

  /** Any method, any path under /v2/structured-contents/, with the caller's token unless `token` says otherwise. */
  const ask = (method: string, pathAndQuery: string, init: { token?: string | null; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const token = init.token === undefined ? caller.accessToken : init.token;
    return call(server.url, `/v2/structured-contents/${pathAndQuery}`, {
      method,
      ...(token === null ? {} : { token }),
      ...(init.body === undefined ? {} : { rawBody: init.body }),
      ...(init.headers === undefined ? {} : { headers: init.headers }),
    });
  };
  const post = (title: string, body: unknown, headers?: Record<string, string>) =>
    ask('POST', title, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  const problem = (answer: Answer): [number, string | undefined] => [answer.status, (answer.json as { message?: string } | undefined)?.message];
  const cacheLookups = async (): Promise<number> => {
    const text = (await server.get('/metrics')).text;
    return text
      .split('\n')
      .filter((l) => l.startsWith('wikistruct_article_cache_total{'))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  };

  beforeAll(async () => {
    if (skip) return;
    database = await backend.open();
    server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), offline: true, content: { parseThreads: 1, rateLimit: { burst: 10_000, perSecond: 10_000 } } });
    parser = createEngineClient({ threads: 1 });
    const dir = writeEnvelopes(freshDir('wikistruct-v2'), [
      envelope({ project: 'enwiki', language: 'en', title: 'Albert Einstein', revision: 10 }),
      envelope({ project: 'simplewiki', language: 'en', title: 'Albert Einstein', revision: 11 }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 12 }),
      envelope({ project: 'dewiki', language: 'de', title: 'Albert Einstein', revision: 14 }),
      envelope({ project: 'enwiki', language: 'en', title: 'Ada Lovelace', revision: 20, html: infoboxHtml(20) }),
    ]);
    const summary = await importInputs([dir], { store: new ArticleStore(database.db, server.clock), engine: parser });
    expect(summary, 'every envelope imported').toMatchObject({ records: 5, inserted: 5, failed: 0 });
    const { username, password } = await addUser(database.db, server.clock);
    caller = await logIn(server, username, password);
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await database?.dispose();
  });

  test.skipIf(skip)('limit: default 3, one Article per project by project code, cut before any Article is read', async () => {
    const before = await cacheLookups();
    expect(byProject((await post('Albert_Einstein', {})).json), 'default: the first 3 of 4 projects').toEqual(['dewiki', 'enwiki', 'frwiki']);
    expect((await cacheLookups()) - before, 'three Articles read').toBe(3);
    const one = await post('Albert_Einstein', { limit: 1 });
    expect(byProject(one.json), 'limit 1').toEqual(['dewiki']);
    expect((await cacheLookups()) - before, 'then one more: the other three matches were never read').toBe(4);
    expect(byProject((await post('Albert_Einstein', { limit: 10 })).json), 'limit 10: all four').toEqual(['dewiki', 'enwiki', 'frwiki', 'simplewiki']);
    expect(byProject((await post('Albert_Einstein', { limit: 2, filters: [{ field: 'in_language.identifier', value: 'en' }] })).json), 'after filtering').toEqual(['enwiki', 'simplewiki']);
    for (const limit of [0, 11, -1, 2.5, '2', null, true]) {
      expect(problem(await post('Albert_Einstein', { limit })), `limit ${JSON.stringify(limit)}`).toEqual([422, 'limit: must be an integer from 1 to 10']);
    }
    expect(one.headers.get('etag'), 'another limit, other Articles, another ETag').not.toBe((await post('Albert_Einstein', { limit: 2 })).headers.get('etag'));
  });

  test.skipIf(skip)('fields in dot notation: exactly those, nested as in the Article, in its key order', async () => {
    const filters = [{ field: 'is_part_of.identifier', value: 'enwiki' }];
    const full = ((await post('Albert_Einstein', { filters })).json as Record<string, unknown>[])[0]!;
    const several = await post('Albert_Einstein', { filters, fields: ['name', 'version.identifier', 'is_part_of.identifier'] });
    expect(several.text, 'exact reply').toBe('[{"name":"Albert Einstein","version":{"identifier":10},"is_part_of":{"identifier":"enwiki"}}]');

    const object = await post('Albert_Einstein', { filters, fields: ['version'] });
    expect(object.json, 'an object whole').toEqual([{ version: full['version'] }]);

    const order = await post('Albert_Einstein', { filters, fields: ['references', 'abstract', 'name', 'license.name'] });
    const keys = Object.keys((order.json as Record<string, unknown>[])[0]!);
    expect(keys, "the Article's key order, not the request's").toEqual(Object.keys(full).filter((k) => ['references', 'abstract', 'name', 'license'].includes(k)));

    const infobox = await post('Ada_Lovelace', { fields: ['infoboxes.name', 'infoboxes.has_parts.has_parts.name'] });
    expect(infobox.json, 'inside every element of an array').toEqual([
      { infoboxes: [{ name: 'Infobox person', has_parts: [{ has_parts: [{ name: 'Born' }] }] }] },
    ]);

    const sdk = await post('Ada_Lovelace', { fields: ['abstract', 'article_sections', 'infobox'] });
    expect(sdk.status, "the Python SDK README's fields (2024 names)").toBe(200);
    const sdkReply = (sdk.json as Record<string, unknown>[])[0]!;
    const ada = ((await post('Ada_Lovelace', {})).json as Record<string, unknown>[])[0]!;
    expect(Object.keys(sdkReply), 'answered under the names asked for').toEqual(['abstract', 'article_sections', 'infobox']);
    expect(sdkReply, 'the 2024 names hold the members they stand for').toEqual({ abstract: ada['abstract'], article_sections: ada['sections'], infobox: ada['infoboxes'] });
    const both = await post('Ada_Lovelace', { fields: ['infobox.name', 'infoboxes.name'] });
    expect(both.text, 'a member asked for by both names is answered under both').toBe('[{"infoboxes":[{"name":"Infobox person"}],"infobox":[{"name":"Infobox person"}]}]');
    expect(problem(await post('Ada_Lovelace', { fields: ['infobox.colour'] })), 'a sub-field of a 2024 name is checked against its member').toEqual([
      422,
      expect.stringMatching(/^fields\.0: unknown field "colour" in "infobox"; expected one of name, type, /),
    ]);

    expect(problem(await post('Albert_Einstein', { fields: ['name', 'colour'] })), 'unknown field').toEqual([
      422,
      expect.stringMatching(/^fields\.1: unknown Article field "colour"; expected one of name, /),
    ]);
    expect(problem(await post('Albert_Einstein', { fields: ['version.colour'] })), 'unknown sub-field').toEqual([
      422,
      'fields.0: unknown field "colour" in "version"; expected one of identifier, comment, tags, is_minor_edit, is_flagged_stable, has_tag_needs_citation, noindex, number_of_characters, size, editor, scores, maintenance_tags',
    ]);
    expect(problem(await post('Albert_Einstein', { fields: ['sections.has_parts.has_parts.colour'] })), 'through the recursive Part').toEqual([
      422,
      expect.stringMatching(/^fields\.0: unknown field "colour" in "sections\.has_parts\.has_parts"; expected one of name, type, /),
    ]);
    expect(problem(await post('Albert_Einstein', { fields: ['name.first'] })), 'a leaf has no sub-fields').toEqual([422, 'fields.0: "name" has no sub-fields']);
    expect(problem(await post('Albert_Einstein', { fields: [] })), 'empty').toEqual([422, 'fields: must name at least one field']);
  });

  test.skipIf(skip)('GET with query parameters means what POST with the body means: same bytes, same ETag', async () => {
    const pairs: [string, unknown][] = [
      ['', {}],
      ['?limit=2&fields=name&fields=version.identifier', { limit: 2, fields: ['name', 'version.identifier'] }],
      ['?limit=2&fields=name,version.identifier', { limit: 2, fields: ['name', 'version.identifier'] }],
      ['?filters=is_part_of.identifier:frwiki&fields=name', { filters: [{ field: 'is_part_of.identifier', value: 'frwiki' }], fields: ['name'] }],
      [`?filters=${encodeURIComponent('[{"field":"in_language.identifier","value":"en"}]')}`, { filters: [{ field: 'in_language.identifier', value: 'en' }] }],
      ['?filters=in_language.identifier:en,is_part_of.identifier:simplewiki', { filters: [{ field: 'in_language.identifier', value: 'en' }, { field: 'is_part_of.identifier', value: 'simplewiki' }] }],
      ['?filters=in_language.identifier:en&filters=is_part_of.identifier:enwiki', { filters: [{ field: 'in_language.identifier', value: 'en' }, { field: 'is_part_of.identifier', value: 'enwiki' }] }],
    ];
    for (const [query, body] of pairs) {
      const got = await ask('GET', `Albert_Einstein${query}`);
      const posted = await post('Albert_Einstein', body);
      expect([got.status, got.text], `GET ${query} = POST ${JSON.stringify(body)}`).toEqual([200, posted.text]);
      expect(got.headers.get('etag'), `${query}: the same ETag`).toBe(posted.headers.get('etag'));
    }
    const bare = await ask('GET', 'Albert_Einstein');
    const bodiless = await ask('POST', 'Albert_Einstein');
    expect(bare.text, 'GET without parameters = POST without a body').toBe(bodiless.text);
  });

  test.skipIf(skip)('GET: auth, 304, HEAD, compression', async () => {
    const missing = await ask('GET', 'Albert_Einstein', { token: null });
    expect(problem(missing), 'no token').toEqual([401, 'an access token is required: Authorization: Bearer <access_token>']);
    const first = await ask('GET', 'Albert_Einstein?limit=1');
    const etag = first.headers.get('etag')!;
    const again = await ask('GET', 'Albert_Einstein?limit=1', { headers: { 'if-none-match': etag } });
    expect([again.status, again.text], '304 without a body').toEqual([304, '']);
    const head = await ask('HEAD', 'Albert_Einstein?limit=1');
    expect([head.status, head.text, head.headers.get('etag')], 'HEAD: the headers, no body').toEqual([200, '', etag]);

    const { request } = await import('node:http');
    const compressed = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      // Three Articles: above the 1 KiB below which replies are sent uncompressed.
      const req = request(`${server.url}/v2/structured-contents/Albert_Einstein`, { headers: { authorization: `Bearer ${caller.accessToken}`, 'accept-encoding': 'br' } });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(compressed.encoding, 'brotli').toBe('br');
    expect(brotliDecompressSync(compressed.body).toString(), 'the same Articles').toBe((await ask('GET', 'Albert_Einstein')).text);
  });

  test.skipIf(skip)('GET: a 422 naming the parameter for what cannot be read; POST refuses a query', async () => {
    const cases: [string, string][] = [
      ['?limit=abc', 'limit: must be an integer from 1 to 10'],
      ['?limit=', 'limit: must be an integer from 1 to 10'],
      ['?limit=11', 'limit: must be an integer from 1 to 10'],
      ['?limit=1&limit=2', 'limit: given more than once'],
      ['?fields=name,nope', 'fields.1: unknown Article field "nope"; expected one of'],
      ['?fields=', 'fields.0: "" is not a field path (names joined by single dots)'],
      ['?filters=enwiki', 'filters: expected field:value or JSON, got "enwiki"'],
      ['?filters=%5Bnot%20json', 'filters: not valid JSON (a filter object or an array of them)'],
      ['?filters=name:x', 'filters.0.field: unknown filter field; expected one of is_part_of.identifier, in_language.identifier'],
      ['?filters=is_part_of.identifier:', 'filters.0.value: must not be empty'],
      ['?filter=x', 'filter: unexpected query parameter; expected one of limit, fields, filters'],
    ];
    for (const [query, message] of cases) {
      const [status, text] = problem(await ask('GET', `Albert_Einstein${query}`));
      expect(status, query).toBe(422);
      expect(text, query).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    expect(problem(await ask('POST', 'Albert_Einstein?limit=1')), 'POST with a query').toEqual([422, 'limit: query parameters are read on GET only; a POST sends them in its JSON body']);
  });

  test.skipIf(skip)('titles: up to 255 bytes of UTF-8 reach the title rules; longer is a 400 naming the limit; over-long URLs a 414', async () => {
    const longest = `${'é'.repeat(127)}a`; // 255 bytes, 763 characters percent-encoded
    const fits = await ask('GET', encodeURIComponent(longest));
    expect(problem(fits), 'a legal title: looked up (not stored here)').toEqual([404, `no article "${longest}" in any project (the article store only: upstream fetching is off)`]);
    const over = await ask('GET', encodeURIComponent(`${longest}b`));
    expect(problem(over), '256 bytes').toEqual([400, expect.stringMatching(/: it is 256 bytes long in UTF-8, over MediaWiki's limit of 255$/)]);
    const huge = await ask('POST', 'a'.repeat(1100));
    expect(problem(huge), 'beyond what any title can be in a URL').toEqual([414, 'the title in the URL is longer than 1024 characters (MediaWiki titles are at most 255 bytes of UTF-8)']);
  });

  test.skipIf(skip)('401 replies carry the Bearer challenge of RFC 6750', async () => {
    const missing = await ask('POST', 'Albert_Einstein', { token: null });
    expect([missing.status, missing.headers.get('www-authenticate')], 'no token: the bare challenge').toEqual([401, 'Bearer realm="wikistruct"']);
    const bad = await ask('GET', 'Albert_Einstein', { token: 'not-a-jwt' });
    expect([bad.status, bad.headers.get('www-authenticate')], 'a bad token: invalid_token').toEqual([401, 'Bearer realm="wikistruct", error="invalid_token"']);
    const basic = await ask('GET', 'Albert_Einstein', { token: null, headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    expect([basic.status, basic.headers.get('www-authenticate')], 'another scheme: the challenge says which one').toEqual([401, 'Bearer realm="wikistruct"']);
  });

  test.skipIf(skip)('NUL and lone surrogates in a filter value or the title: refused naming the field, never a 500', async () => {
    const value = (v: string) => post('Albert_Einstein', { filters: [{ field: 'is_part_of.identifier', value: v }] });
    expect(problem(await value('en\u0000wiki')), 'NUL in a body').toEqual([422, 'filters.0.value: must not contain NUL (\\u0000)']);
    // JSON.stringify would escape a lone surrogate as \ud800, which JSON.parse turns back into one.
    expect(problem(await value('en\ud800wiki')), 'a lone surrogate in a body').toEqual([422, 'filters.0.value: must not contain a lone UTF-16 surrogate (not valid Unicode)']);
    expect(problem(await ask('GET', 'Albert_Einstein?filters=is_part_of.identifier:en%00wiki')), 'NUL in a query').toEqual([422, 'filters.0.value: must not contain NUL (\\u0000)']);
    expect(problem(await ask('GET', `Albert_Einstein?filters=${encodeURIComponent('[{"field":"is_part_of.identifier","value":"\\udc00"}]')}`)), 'a lone surrogate in JSON in a query').toEqual([
      422,
      'filters.0.value: must not contain a lone UTF-16 surrogate (not valid Unicode)',
    ]);
    expect(problem(await ask('GET', 'Albert%00Einstein')), 'NUL in the title').toEqual([400, 'invalid title "Albert%00Einstein": character U+0000 is not allowed in titles']);
    expect(problem(await ask('GET', 'Albert%ED%A0%80')), 'a surrogate encoded in the title: not UTF-8, refused by the router').toEqual([
      400,
      'malformed URL: a %-escape in the path is not valid (a "%" must start "%XX" encoding UTF-8)',
    ]);
  });
});

