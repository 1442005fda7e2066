/**
 * /v2/openapi.json describes what is actually sent: real replies of the running service (a full
 * one, sparse ones with top-level and nested dot fields, error Messages) validate with ajv against
 * the served document, its `$ref`s resolved inside it. The document does not depend on the
 * storage backend, so this runs on PGlite only.
 */
import { existsSync, mkdirSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { corpusDir } from '../../../scripts/conformance/corpus.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { runSnapshotBuildCommand } from '../../../src/service/snapshots/command.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type Fetcher, type TestServer } from '../helpers/harness.js';
import { deepHtml, envelope, logIn, pageHtml, structuredContents, writeEnvelopes, type Caller } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const REAL_ARTICLE = 'enwiki__Angela_Merkel.json';
const OPERATION = '/paths/~1v2~1structured-contents~1{article_name}';
const pointer = (method: string, status: string, operation = OPERATION) => `openapi.json#${operation}/${method}/responses/${status}/content/application~1json/schema`;
const PARSE = '/paths/~1v2~1parse';
const SOURCE = '/paths/~1v2~1source~1{article_name}';

/** A raw call with the access token (the explorer routes are not the Caller's). */
async function send(fetcher: Fetcher, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  const response = await fetcher(path, { method: body === undefined ? 'GET' : 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: await response.json() };
}

describe('the served OpenAPI document validates real replies', () => {
  let database: TestDatabase;
  let server: TestServer;
  let parser: EngineClient;
  let caller: Caller;
  let ajv: Ajv2020;
  let reply200: ValidateFunction;
  /** The real article's HTML for /v2/parse (a synthetic page when the corpus is absent). */
  let parseHtml = pageHtml('enwiki', 'Parsed Page', 5);
  const titles = ['Albert_Einstein', 'Deep'];

  beforeAll(async () => {
    database = await BACKENDS[0]!.open();
    server = await startTestServer(database.db, { socket: false, outboxDir: join(database.dir, 'outbox'), offline: true, content: { parseThreads: 1, snapshotsDir: join(database.dir, 'snapshots') } });
    parser = createEngineClient({ threads: 1 });
    const dir = writeEnvelopes(freshDir('wikistruct-openapi'), [
      envelope({ project: 'enwiki', language: 'en', title: 'Albert Einstein', revision: 10, html: pageHtml('enwiki', 'Albert Einstein', 10) }),
      envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 12 }),
      envelope({ project: 'enwiki', language: 'en', title: 'Deep', revision: 13, html: deepHtml(13) }),
    ]);
    // A real article too (tables, references with metadata, infoboxes), when the corpus is here.
    const corpus = corpusDir();
    if (corpus !== undefined && existsSync(join(corpus, 'articles', REAL_ARTICLE))) {
      mkdirSync(join(dir, 'real'));
      copyFileSync(join(corpus, 'articles', REAL_ARTICLE), join(dir, 'real', REAL_ARTICLE));
      titles.push('Angela_Merkel');
      const real = JSON.parse(readFileSync(join(corpus, 'articles', REAL_ARTICLE), 'utf8')) as { article_body?: { html?: unknown } };
      if (typeof real.article_body?.html === 'string') parseHtml = real.article_body.html;
    } else {
      console.log('openapi.test: corpus not found; validating synthetic articles only');
    }
    const summary = await importInputs([dir], { store: new ArticleStore(database.db, server.clock), engine: parser });
    expect(summary.failed, 'every envelope imported').toBe(0);
    const built = await runSnapshotBuildCommand(database.db, server.clock, { action: 'snapshot-build', dir: join(database.dir, 'snapshots'), jobs: 1, projects: ['frwiki'] });
    expect(built.ok, built.lines.join('\n')).toBe(true);
    const { username, password } = await addUser(database.db, server.clock);
    caller = await logIn(server, username, password);

    const document = (await server.get('/v2/openapi.json')).body;
    // strict: false: the OpenAPI wrapper around the schemas (paths, parameters) is not JSON Schema.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi.json');
    reply200 = ajv.compile({ $ref: pointer('post', '200') });
  });
  afterAll(async () => {
    await server?.close();
    await parser?.close();
    await database?.dispose();
  });

  const valid = (validate: ValidateFunction, data: unknown, label: string): void => {
    const ok = validate(data);
    expect(ok ? 'valid' : ajv.errorsText(validate.errors, { separator: '\n' }), label).toBe('valid');
  };

  test('full replies: every Article, Part trees and all, is a complete Article', async () => {
    const article = ajv.compile({ $ref: 'openapi.json#/components/schemas/Article' });
    for (const title of titles) {
      const reply = await caller.contents(title);
      expect(reply.status, title).toBe(200);
      valid(reply200, reply.json, `${title}: the 200 reply`);
      for (const a of reply.json as unknown[]) valid(article, a, `${title}: strictly an Article, not only a sparse one`);
    }
  });

  test('sparse replies: top-level and nested dot fields, through arrays and the recursive Part', async () => {
    const full = ajv.compile({ $ref: 'openapi.json#/components/schemas/Article' });
    const selections = [
      ['name'],
      ['name', 'version.identifier', 'is_part_of.identifier'],
      ['version.comment'],
      ['infoboxes.name'],
      ['sections.has_parts.value', 'sections.has_parts.has_parts.links.url'],
      ['tables.rows.value'],
      ['references.metadata.title', 'references.text'],
    ];
    let notComplete = 0;
    for (const title of titles) {
      for (const fields of selections) {
        const reply = await caller.contents(title, { fields });
        expect(reply.status, `${title} ${fields.join(',')}`).toBe(200);
        valid(reply200, reply.json, `${title} with fields ${fields.join(',')}`);
        if (!full(reply.json instanceof Array ? reply.json[0] : undefined)) notComplete++;
      }
    }
    expect(notComplete, 'sparse replies exist that the full Article schema refuses: the sparse twin is needed').toBeGreaterThan(0);
  });

  test('the schema still checks: a field the Article does not have, or a wrong type, is refused', async () => {
    const reply = (await caller.contents('Albert_Einstein', { fields: ['name', 'version.identifier'] })).json as Record<string, unknown>[];
    expect(reply200(reply), 'the real reply').toBe(true);
    expect(reply200([{ ...reply[0], colour: 'red' }]), 'an unknown top-level field').toBe(false);
    expect(reply200([{ ...reply[0], version: { identifier: 'ten' } }]), 'a nested field of the wrong type').toBe(false);
    expect(reply200([{ infoboxes: [{ has_parts: [{ colour: 1 }] }] }]), 'an unknown field deep in a Part').toBe(false);
  });

  test('error replies are the Message the document names, with the documented headers', async () => {
    const message = (status: string) => ajv.compile({ $ref: pointer('post', status) });
    const unauthorized = await structuredContents(server.fetch, 'Albert_Einstein', {});
    valid(message('401'), unauthorized.json, '401');
    const unprocessable = await caller.contents('Albert_Einstein', { fields: ['nope'] });
    expect(unprocessable.status, '422').toBe(422);
    valid(message('422'), unprocessable.json, '422');
    const notFound = await caller.contents('Nowhere');
    valid(message('404'), notFound.json, '404');
    const document = (await server.get('/v2/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    const get = document.paths['/v2/structured-contents/{article_name}']?.['get'];
    expect(get?.parameters?.map((p) => p.name), 'GET documents its query parameters').toEqual(['article_name', 'limit', 'fields', 'filters', 'If-None-Match']);
  });

  test('/v2/parse and /v2/source replies validate against their operations; source hints only in the Sourced twin', async () => {
    const parsed = ajv.compile({ $ref: pointer('post', '200', PARSE) });
    const article = ajv.compile({ $ref: 'openapi.json#/components/schemas/Article' });
    const plain = await send(server.fetch, '/v2/parse', caller.accessToken, { html: parseHtml });
    expect(plain.status, 'parse html').toBe(200);
    valid(parsed, plain.json, '/v2/parse of HTML');
    valid(article, plain.json, '/v2/parse without hints: strictly an Article');
    expect((plain.json as { sections: unknown[] }).sections.length, 'the parsed page has sections to check').toBeGreaterThan(0);

    const hinted = await send(server.fetch, '/v2/parse', caller.accessToken, { html: parseHtml, source_positions: true });
    expect(hinted.status, 'parse with source_positions').toBe(200);
    valid(parsed, hinted.json, '/v2/parse with source_positions');
    expect(JSON.stringify(hinted.json), 'hints are present').toContain('"source":{"element":');
    expect(article(hinted.json), 'the strict Article refuses the hints: the twin is what admits them').toBe(false);

    const wikitext = await send(server.fetch, '/v2/parse', caller.accessToken, { wikitext: "'''Foo''' is a [[bar]].<ref>A source.</ref>\n\n== History ==\nText.", name: 'Foo', project: 'enwiki' });
    expect(wikitext.status, 'parse wikitext').toBe(200);
    valid(parsed, wikitext.json, '/v2/parse of wikitext');

    const source = await send(server.fetch, '/v2/source/Albert_Einstein?project=enwiki', caller.accessToken);
    expect(source.status, 'source').toBe(200);
    valid(ajv.compile({ $ref: pointer('get', '200', SOURCE) }), source.json, '/v2/source');

    const bad = { ...(hinted.json as Record<string, unknown>), colour: 'red' };
    expect(parsed(bad), 'an unknown top-level field is still refused').toBe(false);

    const error = (operation: string, method: string, status: string) => ajv.compile({ $ref: pointer(method, status, operation) });
    const unauthorized = await send(server.fetch, '/v2/parse', undefined, { html: '<p>x</p>' });
    expect(unauthorized.status, '401').toBe(401);
    valid(error(PARSE, 'post', '401'), unauthorized.json, 'parse 401');
    const unprocessable = await send(server.fetch, '/v2/parse', caller.accessToken, { html: '<p>x</p>', colour: 'red' });
    expect(unprocessable.status, '422').toBe(422);
    valid(error(PARSE, 'post', '422'), unprocessable.json, 'parse 422');
    const missing = await send(server.fetch, '/v2/source/Nowhere?project=enwiki', caller.accessToken);
    expect(missing.status, '404').toBe(404);
    valid(error(SOURCE, 'get', '404'), missing.json, 'source 404');
    const document = (await server.get('/v2/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const status of ['401', '413', '422', '429']) {
      expect(document.paths['/v2/parse']?.['post']?.responses[status], `parse documents ${status}`).toBeDefined();
      expect(document.paths['/v2/source/{article_name}']?.['get']?.responses[status], `source documents ${status}`).toBeDefined();
    }
  });

  /**
   * Every operation of both documents, sent for real with example parameters: each reply's status
   * is one the operation documents, and a JSON reply validates against the schema documented for
   * that status. A route added to the table without its documentation, or documented wrongly, fails.
   */
  test('every route of /v1/openapi.json and /v2/openapi.json: its real replies validate against the document', async () => {
    const temporary = await addUser(database.db, server.clock, { temporary: true });
    const challenge = (await server.post('/login', { username: temporary.username, password: temporary.password })).body;
    const user = await addUser(database.db, server.clock);
    const tokens = (await server.post('/login', { username: user.username, password: user.password })).body as Record<string, string>;
    // Its own account: changing the password revokes the tokens the other requests need.
    const changer = await addUser(database.db, server.clock);
    const changerToken = ((await server.post('/login', { username: changer.username, password: changer.password })).body as Record<string, string>)['access_token'];
    // A body that the operation answers with a 2xx (or, where only a mail holds the key, its documented refusal).
    const bodies: Record<string, unknown> = {
      '/v1/login': { username: user.username, password: user.password },
      '/v1/token-refresh': { username: user.username, refresh_token: tokens['refresh_token'] },
      '/v1/token-revoke': { refresh_token: tokens['refresh_token'] },
      '/v1/forgot-password': { username: user.username },
      '/v1/forgot-password-confirm': { username: user.username, password: 'a long new passphrase', confirmation_code: '000000' },
      '/v1/change-password': { access_token: changerToken, previous_password: changer.password, proposed_password: 'another long passphrase' },
      '/v1/new-password-required': { session: challenge['session'], username: temporary.username, new_password: 'a long new passphrase' },
      '/v2/parse': { html: pageHtml('enwiki', 'Parsed', 3) },
    };
    const parameters: Record<string, string> = { article_name: 'Albert_Einstein', name: 'Albert_Einstein', chunk: 'frwiki_namespace_0_chunk_0' };
    const identifiers: Record<string, string> = { projects: 'enwiki', codes: 'wiki', languages: 'en', namespaces: '0', snapshots: 'frwiki_namespace_0' };
    const seen: string[] = [];
    for (const version of ['v1', 'v2'] as const) {
      const document = (await server.get(`/${version}/openapi.json`)).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
      const checker = new Ajv2020({ strict: false, allErrors: true });
      addFormats(checker);
      checker.addSchema(document, `${version}.json`);
      for (const [template, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) => (name === 'identifier' ? identifiers[template.split('/')[2]!]! : parameters[name]!));
          const query = template === '/v2/source/{article_name}' ? '?project=enwiki' : '';
          const body = method === 'post' ? JSON.stringify(bodies[template] ?? {}) : undefined;
          const headers: Record<string, string> = { authorization: `Bearer ${caller.accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
          const reply = await server.fetch(`${path}${query}`, { method: method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) });
          const label = `${method.toUpperCase()} ${template} → ${reply.status}`;
          seen.push(`${method.toUpperCase()} ${template} ${reply.status}`);
          expect(operation.responses[String(reply.status)], `${label}: a documented status`).toBeDefined();
          const type = reply.headers.get('content-type') ?? '';
          if (method === 'head' || !type.startsWith('application/json')) continue;
          expect(operation.responses[String(reply.status)]?.content?.['application/json'], `${label}: documented as JSON`).toBeDefined();
          const escaped = template.replaceAll('~', '~0').replaceAll('/', '~1');
          const validate = checker.compile({ $ref: `${version}.json#/paths/${escaped}/${method}/responses/${reply.status}/content/application~1json/schema` });
          const json: unknown = await reply.json();
          expect(validate(json) ? 'valid' : checker.errorsText(validate.errors, { separator: '\n' }), label).toBe('valid');
        }
      }
    }
    // Each route reached its success reply, except the two whose key only a mail or a session holds.
    expect(seen.filter((s) => !/ 2\d\d$/.test(s)), 'the operations that did not succeed').toEqual(['POST /v1/forgot-password-confirm 401']);
    expect(seen.length, 'every operation of both documents was sent').toBeGreaterThanOrEqual(40);
  });
});
