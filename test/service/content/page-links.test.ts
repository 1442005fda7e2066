/**
 * /v2/articles gives the categories and templates of an article stored without an envelope that
 * lists them (bare Parsoid HTML, a page fetched from the wiki), read from its HTML on the engine's
 * worker thread and saved in its row; an envelope's own lists win. Over real sockets on both
 * storage backends, with the real importer, engine client and a fake wiki.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ENGINE_VERSION } from '../../../src/service/content/engine-version.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import { BACKENDS, freshDir, type TestDatabase } from '../helpers/backends.js';
import { addUser, type TestServer } from '../helpers/harness.js';
import { openWikiSuite, type WikiSuite } from '../helpers/wiki-suite.js';
import { call, type CallInit } from './enterprise-support.js';
import { envelope, logIn, pageHtml, writeEnvelopes } from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** A Parsoid page of `project` with two categories (one twice, with a sort key) and two template calls. */
function pageWithLinks(project: 'enwiki' | 'frwiki', title: string, revision: number): string {
  const [category, template] = project === 'frwiki' ? ['Catégorie', 'Modèle'] : ['Category', 'Template'];
  const links = `<p typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"Infobox\\n","href":"./${template}:Infobox_Biographie"},"params":{}}}]}'>Infobox</p>
<span typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"#if:1","function":"if"},"params":{}}},{"template":{"target":{"wt":"Lien web","href":"./${template}:Lien_web"},"params":{}}}]}'>lien</span>
<link rel="mw:PageProp/Category" href="./${category}:Naissance_%C3%A0_Paris#Baker"/>
<link rel="mw:PageProp/Category" href="./${category}:Danseuse"/>
<link rel="mw:PageProp/Category" href="./${category}:Naissance_%C3%A0_Paris"/>`;
  return pageHtml(project, title, revision).replace('</body>', `${links}</body>`);
}

describe.each(BACKENDS)('categories and templates of /v2/articles on $name', (backend) => {
  const skip = backend.skip !== undefined;
  let suite: WikiSuite;
  let database: TestDatabase;
  let server: TestServer;
  let token: string;
  const as = (path: string, init: CallInit = {}) => call(server.url, path, { token, ...init });
  const first = (json: unknown) => (json as Record<string, unknown>[])[0]!;
  const savedLinks = async (project: string, title: string) =>
    (await database.db.query<{ page_links: string | null }>('SELECT page_links FROM articles WHERE project = $1 AND title = $2', [project, title]))[0]?.page_links;

  beforeAll(async () => {
    if (skip) return;
    suite = await openWikiSuite(backend, [{ title: 'Fetched page', html: pageWithLinks('enwiki', 'Fetched page', 701), id: 70, revision: 701 }]);
    database = suite.database;
    server = await suite.start(database.db, 'outbox', { content: { parseThreads: 1 } });
    const store = new ArticleStore(database.db, server.clock);
    const parser = suite.parser;
    const bare = freshDir('wikistruct-page-links-bare');
    writeFileSync(join(bare, 'Joséphine_Baker.html'), pageWithLinks('frwiki', 'Joséphine Baker', 30));
    expect(await importInputs([bare], { store, engine: parser, project: 'frwiki' }), 'bare HTML imported').toMatchObject({ inserted: 1, failed: 0 });
    const listed = {
      ...envelope({ project: 'enwiki', language: 'en', title: 'Listed page', revision: 40, html: pageWithLinks('enwiki', 'Listed page', 40) }),
      categories: [{ name: 'Category:From the envelope', url: 'https://en.wikipedia.org/wiki/Category:From_the_envelope' }],
      templates: [{ name: 'Template:From the envelope', url: 'https://en.wikipedia.org/wiki/Template:From_the_envelope' }],
    };
    // Categories listed, templates not: the templates are read from the HTML.
    const half = { ...envelope({ project: 'enwiki', language: 'en', title: 'Half listed', revision: 41, html: pageWithLinks('enwiki', 'Half listed', 41) }), categories: listed.categories };
    expect(await importInputs([writeEnvelopes(freshDir('wikistruct-page-links'), [listed, half])], { store, engine: parser }), 'envelopes imported').toMatchObject({ inserted: 2, failed: 0 });
    const { username, password } = await addUser(database.db, server.clock);
    token = (await logIn(server, username, password)).accessToken;
  });
  afterAll(async () => {
    await suite?.close();
  });

  test.skipIf(skip)('bare HTML: read from the HTML, named with the wiki\'s namespace, once each, and saved in the row', async () => {
    expect(await savedLinks('frwiki', 'Joséphine Baker'), 'nothing read before a request needs it').toBeNull();
    const reply = await as('/v2/articles/Jos%C3%A9phine_Baker', { body: { fields: ['categories', 'templates'] } });
    expect(reply.status).toBe(200);
    expect(first(reply.json)).toEqual({
      categories: [
        { name: 'Catégorie:Naissance à Paris', url: 'https://fr.wikipedia.org/wiki/Catégorie:Naissance_à_Paris' },
        { name: 'Catégorie:Danseuse', url: 'https://fr.wikipedia.org/wiki/Catégorie:Danseuse' },
      ],
      templates: [
        { name: 'Modèle:Infobox Biographie', url: 'https://fr.wikipedia.org/wiki/Modèle:Infobox_Biographie' },
        { name: 'Modèle:Lien web', url: 'https://fr.wikipedia.org/wiki/Modèle:Lien_web' },
      ],
    });
    const saved = JSON.parse((await savedLinks('frwiki', 'Joséphine Baker'))!) as Record<string, unknown>;
    expect(saved, 'saved with the engine version that read it').toEqual({ engine: ENGINE_VERSION, ...(first(reply.json) as object) });
  });

  test.skipIf(skip)('what the row holds for this engine version is served without reading the HTML again; another version\'s is read again', async () => {
    const marker = { engine: ENGINE_VERSION, categories: [{ name: 'Catégorie:Saved' }], templates: [] };
    await database.db.query('UPDATE articles SET page_links = $1 WHERE project = $2 AND title = $3', [JSON.stringify(marker), 'frwiki', 'Joséphine Baker']);
    const fromRow = await as('/v2/articles/Jos%C3%A9phine_Baker', { body: { fields: ['categories', 'templates'] } });
    expect(first(fromRow.json), 'the saved lists (an empty one left out)').toEqual({ categories: [{ name: 'Catégorie:Saved' }] });
    await database.db.query('UPDATE articles SET page_links = $1 WHERE project = $2 AND title = $3', [JSON.stringify({ ...marker, engine: 'an older engine' }), 'frwiki', 'Joséphine Baker']);
    const reread = await as('/v2/articles/Jos%C3%A9phine_Baker', { body: { fields: ['categories'] } });
    expect((first(reread.json)['categories'] as unknown[]).length, 'read from the HTML again').toBe(2);
    expect(JSON.parse((await savedLinks('frwiki', 'Joséphine Baker'))!), 'and saved again').toMatchObject({ engine: ENGINE_VERSION });
  });

  test.skipIf(skip)('an envelope\'s own lists win; a list it lacks is read from the HTML', async () => {
    const listed = await as('/v2/articles/Listed_page', { body: { fields: ['categories', 'templates'] } });
    expect(first(listed.json)).toEqual({
      categories: [{ name: 'Category:From the envelope', url: 'https://en.wikipedia.org/wiki/Category:From_the_envelope' }],
      templates: [{ name: 'Template:From the envelope', url: 'https://en.wikipedia.org/wiki/Template:From_the_envelope' }],
    });
    expect(await savedLinks('enwiki', 'Listed page'), 'nothing to read').toBeNull();
    const half = await as('/v2/articles/Half_listed', { body: { fields: ['categories', 'templates.name'] } });
    expect(first(half.json)).toEqual({
      categories: [{ name: 'Category:From the envelope', url: 'https://en.wikipedia.org/wiki/Category:From_the_envelope' }],
      templates: [{ name: 'Template:Infobox Biographie' }, { name: 'Template:Lien web' }],
    });
  });

  test.skipIf(skip)('a page fetched from the wiki: read from the HTML the wiki answered', async () => {
    const reply = await as('/v2/articles/Fetched_page', { body: { filters: [{ field: 'is_part_of.identifier', value: 'enwiki' }], fields: ['name', 'categories.name', 'templates.url'] } });
    expect([reply.status, first(reply.json)]).toEqual([
      200,
      {
        name: 'Fetched page',
        categories: [{ name: 'Category:Naissance à Paris' }, { name: 'Category:Danseuse' }],
        templates: [{ url: 'https://en.wikipedia.org/wiki/Template:Infobox_Biographie' }, { url: 'https://en.wikipedia.org/wiki/Template:Lien_web' }],
      },
    ]);
  });

  test.skipIf(skip)('a new revision drops what was read of the old one', async () => {
    const store = new ArticleStore(database.db, server.clock);
    await as('/v2/articles/Jos%C3%A9phine_Baker', { body: { fields: ['name'] } });
    expect(await savedLinks('frwiki', 'Joséphine Baker'), 'read before').not.toBeNull();
    await store.upsert({ project: 'frwiki', title: 'Joséphine Baker', revision: 31, html: pageHtml('frwiki', 'Joséphine Baker', 31), meta: {}, origin: 'import' });
    expect(await savedLinks('frwiki', 'Joséphine Baker')).toBeNull();
    const reply = await as('/v2/articles/Jos%C3%A9phine_Baker', { body: { fields: ['categories', 'version.identifier'] } });
    expect(first(reply.json), 'the new revision has none').toEqual({ version: { identifier: 31 } });
  });
});
