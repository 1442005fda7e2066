/**
 * A fake MediaWiki over a real socket (node:http on 127.0.0.1, a free port): the REST routes the
 * content service reads, `GET /w/rest.php/v1/page/{title}`, `/page/{title}/html` and
 * `/page/{title}/bare`, for a set of pages, with failures switchable per page or for the whole
 * wiki; the action API's siteinfo (`/w/api.php?action=query&meta=siteinfo`, XML), which says what
 * the wiki is called and written in; and an EventStreams-like stream of server-sent events
 * (`/v2/stream/...`). `scriptPath` moves the REST and action APIs (`""` for a wiki installed at the
 * root: `/rest.php`). It records every request, so tests can assert how many fetches reached "the wiki".
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readEnvelope } from '../../src/engine/envelope.js';

export interface FakePage {
  /** Canonical title, with spaces. */
  title: string;
  html: string;
  id?: number;
  revision?: number;
  /** ISO 8601; the REST API's `latest.timestamp`. */
  timestamp?: string;
  contentModel?: string;
  license?: { url: string; title: string };
  /** Send the HTML without Content-Length (chunked), as a streaming upstream would. */
  chunked?: boolean;
}

/**
 * A failure applies to both routes unless `route` names one, and to every request unless `times`
 * limits it (counted per request path: `times: 1` fails the first request of each route).
 */
export type FakeFailure = (
  /** Answer with this status (and a MediaWiki-style JSON error body). */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Answer normally, but only after this long. */
  | { kind: 'slow'; delayMs: number }
  /** Accept the request, then drop the connection without answering. */
  | { kind: 'reset' }
  /** Answer 200 with this body: a wiki (or proxy) answering something unexpected. */
  | { kind: 'garbage'; body: string; contentType: string }
) & { times?: number; route?: Route };

/** `bare`: the page's metadata without its source, what a revalidation asks. */
export type Route = 'page' | 'html' | 'bare' | 'siteinfo';

/** What the wiki says of itself in siteinfo's `general`. */
export interface FakeSiteinfo {
  sitename: string;
  lang: string;
  rtl?: boolean;
}

export interface FakeWikiOptions {
  /** $wgScriptPath: where rest.php and api.php are (default "/w"). */
  scriptPath?: string;
  siteinfo?: FakeSiteinfo;
}

export interface RecordedRequest {
  route: Route | undefined;
  /** Decoded title with spaces; undefined for paths that are not one of the two routes. */
  title: string | undefined;
  path: string;
  userAgent: string | undefined;
  accept: string | undefined;
  /** The client closed the connection before the answer was complete. */
  abandoned: boolean;
}

interface ArmedFailure {
  failure: FakeFailure;
  /** How often it has been applied per request path, for `times`. */
  applied: Map<string, number>;
}

/** A stream of server-sent events (EventStreams' `/v2/stream/{streams}`): not a request the article routes count. */
const STREAM = /^\/v2\/stream\/[^/]+$/;

/** One connection to the event stream, as it arrived. */
export interface StreamConnection {
  /** The Last-Event-ID it resumed from. */
  lastEventId: string | undefined;
  userAgent: string | undefined;
  /** The status it was answered with. */
  status: number;
}

export class FakeWiki {
  readonly requests: RecordedRequest[] = [];
  readonly #pages = new Map<string, FakePage>();
  readonly #redirects = new Map<string, { to: string; status: number }>();
  readonly #failures = new Map<string | undefined, ArmedFailure>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  readonly #route: RegExp;
  readonly #scriptPath: string;
  #siteinfo: FakeSiteinfo;
  #port = 0;
  /** Answers not yet finished or abandoned, and who waits for there to be none (`settled`). */
  #open = 0;
  #waiters: (() => boolean)[] = [];
  /** Every connection to the event stream, answered or refused. */
  readonly streamConnections: StreamConnection[] = [];
  readonly #streams = new Set<ServerResponse>();
  /** Statuses the next stream connections are refused with, in order (with Retry-After, when given). */
  readonly #streamRefusals: { status: number; retryAfter?: string }[] = [];
  #eventId = 0;

  private constructor(options: FakeWikiOptions) {
    this.#scriptPath = options.scriptPath ?? '/w';
    const escaped = this.#scriptPath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    this.#route = new RegExp(`^${escaped}/rest\\.php/v1/page/([^/]+)(/html|/bare)?$`);
    this.#siteinfo = options.siteinfo ?? { sitename: 'Fake Wiki', lang: 'en' };
    this.#server = createServer((req, res) => this.#handle(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(pages: readonly FakePage[] = [], options: FakeWikiOptions = {}): Promise<FakeWiki> {
    const wiki = new FakeWiki(options);
    for (const p of pages) wiki.addPage(p);
    await new Promise<void>((resolve, reject) => {
      wiki.#server.once('error', reject);
      wiki.#server.listen(0, '127.0.0.1', () => resolve());
    });
    wiki.#port = (wiki.#server.address() as AddressInfo).port;
    return wiki;
  }

  /** e.g. "http://127.0.0.1:41234"; stays the same after `down()`, so requests get "connection refused". */
  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** For WikiClient's `resolveOrigin` option: every project is served here. */
  readonly resolveOrigin = (): string => this.origin;

  /** What siteinfo answers from now on. */
  setSiteinfo(siteinfo: FakeSiteinfo): void {
    this.#siteinfo = siteinfo;
  }

  addPage(page: FakePage): void {
    this.#pages.set(page.title, page);
  }

  /** Requests for `from` (on both routes) answer a redirect to the same route of `to`. */
  redirect(from: string, to: string, status = 307): void {
    this.#redirects.set(from, { to, status });
  }

  /** Arms a failure for one page, or for every request when `title` is omitted. */
  fail(failure: FakeFailure, title?: string): void {
    this.#failures.set(title, { failure, applied: new Map() });
  }

  heal(): void {
    this.#failures.clear();
  }

  /**
   * Resolves once `count` requests have arrived and none is still being answered: every recorded
   * request has then ended, answered or `abandoned`, so a test can look without sleeping.
   */
  settled(count = 0): Promise<void> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        if (this.requests.length < count || this.#open > 0) return false;
        resolve();
        return true;
      };
      if (!check()) this.#waiters.push(check);
    });
  }

  /** Resolves once `count` requests have arrived (they may still be being answered). */
  received(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        if (this.requests.length < count) return false;
        resolve();
        return true;
      };
      if (!check()) this.#waiters.push(check);
    });
  }

  /** The event stream's URL (what `serve --follow` would be pointed at). */
  get streamUrl(): string {
    return `${this.origin}/v2/stream/mediawiki.page_change.v1`;
  }

  /** Sends one event to every open stream connection, with the next id (or `id`); returns the id. */
  emit(data: unknown, id = `[{"topic":"eqiad.mediawiki.page_change.v1","partition":0,"offset":${++this.#eventId}}]`): string {
    const text = `event: message\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.#streams) res.write(text);
    return id;
  }

  /** Ends every open stream connection, as EventStreams does every 15 minutes. */
  endStreams(): void {
    for (const res of this.#streams) res.end();
    this.#streams.clear();
  }

  /** The next `statuses.length` stream connections are refused with these statuses. */
  refuseStreams(...refusals: { status: number; retryAfter?: string }[]): void {
    this.#streamRefusals.push(...refusals);
  }

  /** Resolves once `count` stream connections have been answered 200 and are open. */
  streaming(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        if (this.streamConnections.filter((c) => c.status === 200).length < count || this.#streams.size === 0) return false;
        resolve();
        return true;
      };
      if (!check()) this.#waiters.push(check);
    });
  }

  #stream(req: IncomingMessage, res: ServerResponse): void {
    const header = req.headers['last-event-id'];
    const connection: StreamConnection = { lastEventId: typeof header === 'string' ? header : undefined, userAgent: req.headers['user-agent'], status: 200 };
    const refusal = this.#streamRefusals.shift();
    if (refusal !== undefined) {
      connection.status = refusal.status;
      this.streamConnections.push(connection);
      if (refusal.retryAfter !== undefined) res.setHeader('retry-after', refusal.retryAfter);
      sendError(res, refusal.status, 'stream refused by the test');
      this.#changed();
      return;
    }
    this.streamConnections.push(connection);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
    this.#streams.add(res);
    res.on('close', () => this.#streams.delete(res));
    this.#changed();
  }

  /** Wakes the waiters; those still unsatisfied wait on. */
  #changed(): void {
    this.#waiters = this.#waiters.filter((check) => !check());
  }

  /** Requests seen for a title, on one route or both. */
  count(title: string, route?: Route): number {
    return this.requests.filter((r) => r.title === title && (route === undefined || r.route === route)).length;
  }

  /** Stops listening and drops open connections: the wiki is down, connections are refused. */
  async down(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.endStreams();
    for (const s of this.#sockets) s.destroy();
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.down();
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    if (STREAM.test(path)) return this.#stream(req, res);
    const match = this.#route.exec(path);
    const isSiteinfo = path === `${this.#scriptPath}/api.php` && new URLSearchParams(query).get('meta') === 'siteinfo';
    const route: Route | undefined = isSiteinfo ? 'siteinfo' : match === null ? undefined : match[2] === undefined ? 'page' : match[2] === '/html' ? 'html' : 'bare';
    const title = match === null ? undefined : decodeURIComponent(match[1]!).replace(/_/g, ' ');
    const record: RecordedRequest = { route, title, path, userAgent: req.headers['user-agent'], accept: req.headers.accept, abandoned: false };
    this.requests.push(record);
    this.#open++;
    res.on('close', () => {
      if (!res.writableFinished) record.abandoned = true;
      this.#open--;
      this.#changed();
    });
    this.#changed();
    if (req.method === 'GET' && route === 'siteinfo') return this.#answerSiteinfo(res);
    if (req.method !== 'GET' || route === undefined || title === undefined) return sendError(res, 404, 'no such route');

    const armed = this.#failures.get(title) ?? this.#failures.get(undefined);
    if (armed !== undefined) {
      const applied = armed.applied.get(path) ?? 0;
      const { failure } = armed;
      const routeMatches = failure.route === undefined || failure.route === route;
      if (routeMatches && (failure.times === undefined || applied < failure.times)) {
        armed.applied.set(path, applied + 1);
        switch (failure.kind) {
          case 'status':
            if (failure.retryAfter !== undefined) res.setHeader('retry-after', failure.retryAfter);
            return sendError(res, failure.status, 'failure armed by the test');
          case 'reset':
            req.socket.destroy();
            return;
          case 'garbage':
            res.writeHead(200, { 'content-type': failure.contentType, 'content-length': String(Buffer.byteLength(failure.body)) });
            res.end(failure.body);
            return;
          case 'slow': {
            const timer = setTimeout(() => {
              this.#timers.delete(timer);
              this.#answer(res, route, title);
            }, failure.delayMs);
            this.#timers.add(timer);
            return;
          }
        }
      }
    }
    this.#answer(res, route, title);
  }

  /** The action API's XML, as `action=query&meta=siteinfo&siprop=general&format=xml` answers. */
  #answerSiteinfo(res: ServerResponse): void {
    const failure = this.#failures.get(undefined)?.failure;
    if (failure?.kind === 'status' && (failure.route === undefined || failure.route === 'siteinfo')) return sendError(res, failure.status, 'failure armed by the test');
    const { sitename, lang, rtl } = this.#siteinfo;
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    const base = `${this.origin}/wiki/Main_Page`;
    const body = `<?xml version="1.0"?><api batchcomplete=""><query><general mainpage="Main Page" base="${escape(base)}" sitename="${escape(sitename)}" lang="${escape(lang)}"${rtl === true ? ' rtl=""' : ''} case="first-letter" generator="MediaWiki 1.45.0" server="${escape(this.origin)}" articlepath="/wiki/$1" scriptpath="${escape(this.#scriptPath)}" /></query></api>`;
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  }

  #answer(res: ServerResponse, route: Route, title: string): void {
    if (res.destroyed) return;
    const redirect = this.#redirects.get(title);
    if (redirect !== undefined) {
      const target = `${this.#scriptPath}/rest.php/v1/page/${encodeURIComponent(redirect.to.replace(/ /g, '_'))}${route === 'page' ? '' : `/${route}`}`;
      res.writeHead(redirect.status, { location: target, 'content-length': '0' });
      res.end();
      return;
    }
    const page = this.#pages.get(title);
    if (page === undefined) return sendError(res, 404, `The specified page (${title}) does not exist`);
    if (route === 'html') {
      const body = Buffer.from(page.html, 'utf8');
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.8.0"' };
      if (page.chunked !== true) headers['content-length'] = String(body.byteLength);
      res.writeHead(200, headers);
      if (page.chunked === true) {
        // Several writes, so the client sees a stream and cannot know the size up front.
        for (let i = 0; i < body.byteLength; i += 16 * 1024) res.write(body.subarray(i, i + 16 * 1024));
        res.end();
      } else {
        res.end(body);
      }
      return;
    }
    sendJson(res, 200, {
      id: page.id ?? 1,
      key: page.title.replace(/ /g, '_'),
      title: page.title,
      latest: { id: page.revision ?? 1, timestamp: page.timestamp ?? '2024-01-01T00:00:00Z' },
      content_model: page.contentModel ?? 'wikitext',
      license: page.license ?? { url: 'https://creativecommons.org/licenses/by-sa/4.0/', title: 'Creative Commons Attribution-Share Alike 4.0' },
      ...(route === 'bare' ? { html_url: `${this.origin}/w/rest.php/v1/page/${encodeURIComponent(page.title.replace(/ /g, '_'))}/html` } : { source: '(wikitext not served by the fake wiki)' }),
    });
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** The MediaWiki REST API's error body shape. */
function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { messageTranslations: { en: message }, httpCode: status, httpReason: message });
}

/** A FakePage from a Wikimedia Enterprise envelope (e.g. one of ../shared/corpus/articles/*.json). */
export function pageFromEnvelope(json: unknown): FakePage {
  const envelope = readEnvelope(json);
  if (envelope.name === undefined || envelope.article_body.html === undefined) {
    throw new Error('the envelope has no name or no article_body.html');
  }
  const page: FakePage = { title: envelope.name, html: envelope.article_body.html };
  if (envelope.identifier !== undefined) page.id = envelope.identifier;
  if (envelope.version !== undefined) page.revision = envelope.version.identifier;
  if (envelope.date_modified !== undefined) page.timestamp = envelope.date_modified;
  const license = Array.isArray(envelope.license) ? envelope.license[0] : envelope.license;
  if (license?.url !== undefined && license.name !== undefined) page.license = { url: license.url, title: license.name };
  return page;
}
