/**
 * Shared pieces of the content API tests: synthetic Parsoid pages and envelopes, a logged-in
 * caller, and a client for POST /v2/structured-contents over the real socket.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../src/service/clock.js';
import { importInputs } from '../../../src/service/content/importer.js';
import { ArticleStore } from '../../../src/service/content/store.js';
import type { EngineClient } from '../../../src/service/engine-client.js';
import type { Db } from '../../../src/service/storage/db.js';
import { freshDir } from '../helpers/backends.js';
import type { Fetcher, TestServer } from '../helpers/harness.js';
import { call } from './enterprise-support.js';

const HOSTS: Record<string, string> = { enwiki: 'en.wikipedia.org', frwiki: 'fr.wikipedia.org', simplewiki: 'simple.wikipedia.org' };

/** Parsoid-like HTML for one article, with a lead, two sections and a link. */
export function pageHtml(project: string, title: string, revision: number, lead = `Lead of ${title}.`): string {
  const host = HOSTS[project] ?? 'en.wikipedia.org';
  return `<!DOCTYPE html><html about="https://${host}/wiki/Special:Redirect/revision/${revision}"><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//${host}/wiki/"/></head>
<body><section data-mw-section-id="0"><p>${lead} <a rel="mw:WikiLink" href="./Paris">Paris</a></p></section>
<section data-mw-section-id="1"><h2 id="Life">Life</h2><p>Life of ${title}.</p></section>
<section data-mw-section-id="2"><h2 id="Legacy">Legacy</h2><p>Legacy of ${title}.</p></section></body></html>`;
}

/** HTML whose Part tree is 60+ levels deep: nested sections and a 30-level nested list. */
export function deepHtml(revision: number): string {
  let list = 'leaf';
  for (let i = 0; i < 30; i++) list = `<ul><li>level ${30 - i} ${list}</li></ul>`;
  let html = `<!DOCTYPE html><html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/${revision}"><head><base href="//en.wikipedia.org/wiki/"/></head><body><section data-mw-section-id="0"><p>Lead of the deep article.</p></section>`;
  let id = 1;
  for (const h of [2, 3, 4, 5, 6]) html += `<section data-mw-section-id="${id++}"><h${h} id="H${h}">Heading ${h}</h${h}><p>Text ${h}.</p>`;
  html += list;
  html += '</section>'.repeat(5);
  return `${html}</body></html>`;
}

export interface EnvelopeInput {
  project: string;
  language: string;
  title: string;
  revision: number;
  id?: number;
  html?: string;
}

export function envelope(e: EnvelopeInput): Record<string, unknown> {
  const host = HOSTS[e.project] ?? 'en.wikipedia.org';
  return {
    name: e.title,
    identifier: e.id ?? 1000 + e.revision,
    url: `https://${host}/wiki/${e.title.replace(/ /g, '_')}`,
    date_modified: '2026-01-01T00:00:00Z',
    version: { identifier: e.revision },
    is_part_of: { identifier: e.project, url: `https://${host}` },
    in_language: { identifier: e.language },
    license: [{ name: 'Creative Commons Attribution-ShareAlike License 4.0', identifier: 'CC-BY-SA-4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' }],
    article_body: { html: e.html ?? pageHtml(e.project, e.title, e.revision) },
  };
}

/** Writes envelopes as .json files in a fresh directory (the importer reads real files). */
export function writeEnvelopes(dir: string, envelopes: readonly Record<string, unknown>[]): string {
  mkdirSync(dir, { recursive: true });
  envelopes.forEach((e, i) => writeFileSync(join(dir, `${i}.json`), JSON.stringify(e)));
  return dir;
}

export interface ContentReply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Caller {
  accessToken: string;
  refreshToken: string;
  contents(name: string, body?: unknown, headers?: Record<string, string>): Promise<ContentReply>;
}

export async function structuredContents(url: string | Fetcher, name: string, init: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ContentReply> {
  const { status, headers, text, json } = await call(url, `/v2/structured-contents/${name}`, { method: 'POST', ...init });
  return { status, headers, text, json };
}

export async function logIn(server: TestServer, username: string, password: string): Promise<Caller> {
  const reply = await server.post('/login', { username, password });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  const accessToken = reply.body['access_token'] as string;
  return {
    accessToken,
    refreshToken: reply.body['refresh_token'] as string,
    contents: (name, body, headers) => structuredContents(server.fetch, name, { token: accessToken, body, ...(headers === undefined ? {} : { headers }) }),
  };
}

/** The project of each Article in a reply; the reply itself when it is not an array (a Message). */
export const byProject = (articles: unknown): unknown =>
  Array.isArray(articles) ? (articles as { is_part_of?: { identifier?: string } }[]).map((a) => a.is_part_of?.identifier ?? '?') : articles;

/** The revision of each Article in a reply; the status when it is not 200. */
export const revisionsOf = (reply: ContentReply): unknown =>
  reply.status === 200 ? (reply.json as { version?: { identifier?: number } }[]).map((a) => a.version?.identifier) : reply.status;

/** Imports one enwiki article at `revision` through the importer (synthetic page), as `wikistruct import` would. */
export async function importArticle(db: Db, clock: Clock, engine: EngineClient, title: string, revision: number): Promise<void> {
  const dir = writeEnvelopes(freshDir('wikistruct-import'), [envelope({ project: 'enwiki', language: 'en', title, revision })]);
  const summary = await importInputs([dir], { store: new ArticleStore(db, clock), engine });
  if (summary.failed > 0) throw new Error(`importing ${title} failed`);
}

/** Resolves at the next write of `title` that reaches the listeners of `db` (in its process, or pushed over the bus). */
export function nextWrite(db: Db, clock: Clock, title: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = new ArticleStore(db, clock).onWrite((_project, written) => {
      if (written !== title) return;
      stop();
      resolve();
    });
  });
}
