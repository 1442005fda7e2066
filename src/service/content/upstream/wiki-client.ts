/**
 * Fetches one article from its project's live wiki through the MediaWiki REST API:
 * `GET /w/rest.php/v1/page/{title}` for the page's metadata and `/page/{title}/html` for its
 * Parsoid HTML, both at once, sharing one deadline. A failure of either cancels the other.
 */
import { z } from 'zod';
import { hostOfProject, parseSiteinfo, wikiData, type SiteinfoData } from '../../../index.js';
import { toPathSegment, toWikiPath } from '../title.js';
import { TimeoutStrategy, timeout } from 'cockatiel';
import type { TimeoutPolicy } from 'cockatiel';
import { ProjectCircuits } from './circuits.js';
import { UnknownProject, UpstreamTimeout, UpstreamUnavailable } from './errors.js';
import type { UpstreamOrigin } from './origins.js';
import type { FetchScope, GetPolicy, RetryEvent } from './http.js';
import { attemptTimeout, resilientGet } from './http.js';
import { userAgent } from './user-agent.js';

export const WikiClientOptionsSchema = z.object({
  /** The whole User-Agent header; by default built from `contact`. */
  userAgent: z.string().min(1).optional(),
  /** Operator URL and/or e-mail for the default User-Agent (Wikimedia's User-Agent policy). */
  contact: z.string().optional(),
  attemptTimeoutMs: z.number().int().positive().default(10_000),
  /** Overall deadline for one article, retries and backoff included. */
  deadlineMs: z.number().int().positive().default(25_000),
  maxAttempts: z.number().int().min(1).max(10).default(3),
  baseDelayMs: z.number().int().nonnegative().default(250),
  maxDelayMs: z.number().int().nonnegative().default(4_000),
  retryAfterCapMs: z.number().int().nonnegative().default(5_000),
  maxResponseBytes: z.number().int().positive().default(32 * 1024 * 1024),
  maxRedirects: z.number().int().nonnegative().default(5),
  /** Fetches failing in a row (per project) that open the circuit; 0 turns the breaker off. */
  breakerThreshold: z.number().int().nonnegative().default(5),
  /** How long an open circuit fails fetches at once before letting one trial through. */
  breakerCooldownMs: z.number().int().positive().default(10_000),
});
export type WikiClientOptions = z.input<typeof WikiClientOptionsSchema> & {
  /**
   * Origin (scheme, host, port) to send a project's requests to. Default `https://<host>` from the
   * project code; tests point it at a local fake wiki.
   */
  resolveOrigin?: (project: string, host: string) => string;
  /** Wikis configured with `--upstream` (origins.ts): a project here is fetched from its wiki, whatever its code. */
  upstreams?: readonly UpstreamOrigin[];
  /** Told of every retry of a GET, with its wait and what failed. */
  onRetry?: (retry: RetryEvent) => void;
};

/** GET /w/rest.php/v1/page/{title}: only the fields we use are checked; `source` (wikitext) is ignored. */
const PageResponseSchema = z.looseObject({
  id: z.number().int().positive(),
  key: z.string().min(1),
  title: z.string().min(1),
  latest: z.looseObject({ id: z.number().int().positive(), timestamp: z.iso.datetime({ offset: true }) }),
  content_model: z.string(),
  license: z.looseObject({ url: z.string(), title: z.string() }).optional(),
});

export const UpstreamMetaSchema = z.object({
  project: z.string(),
  /** Page id. */
  identifier: z.number().int(),
  /** The title that answered, after redirects, with spaces. */
  name: z.string(),
  /** Set when the requested title redirected to `name`. */
  redirectedFrom: z.string().optional(),
  revision: z.number().int(),
  dateModified: z.string(),
  /** The article's canonical https:// URL on the production wiki (not the fetch origin). */
  url: z.string(),
  siteUrl: z.string(),
  /** The wiki's content language, when the wiki said it (siteinfo of a configured wiki of its own). */
  language: z.string().optional(),
  contentModel: z.string(),
  license: z.object({ name: z.string(), url: z.string() }).optional(),
});
export type UpstreamMeta = z.infer<typeof UpstreamMetaSchema>;

/** What `/page/{title}/bare` says of a page's latest revision. */
export interface LatestRevision {
  /** The title that answered, after redirects, with spaces. */
  name: string;
  revision: number;
  /** ISO 8601. */
  timestamp: string;
}

export interface UpstreamArticle {
  html: string;
  meta: UpstreamMeta;
}

const ACCEPT_JSON = 'application/json';
const ACCEPT_XML = 'text/xml, application/xml';
// Parsoid's content negotiation: ask for the HTML spec version the engine reads.
const ACCEPT_HTML = 'text/html; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/HTML/2.8.0"';

export class WikiClient {
  readonly #policy: GetPolicy;
  readonly #deadlineMs: number;
  readonly #deadline: TimeoutPolicy;
  readonly #perAttempt: TimeoutPolicy;
  readonly #resolveOrigin: (project: string, host: string) => string;
  readonly #upstreams: ReadonlyMap<string, UpstreamOrigin>;
  /** The language each configured wiki of its own reports, asked once (a failed ask is asked again). */
  readonly #languages = new Map<string, Promise<string | undefined>>();
  readonly #circuits: ProjectCircuits | undefined;

  constructor(options: WikiClientOptions = {}) {
    const { resolveOrigin, onRetry, upstreams, ...rest } = options;
    const o = WikiClientOptionsSchema.parse(rest);
    this.#policy = {
      userAgent: o.userAgent ?? userAgent(o.contact),
      attemptTimeoutMs: o.attemptTimeoutMs,
      maxAttempts: o.maxAttempts,
      backoff: { baseDelayMs: o.baseDelayMs, maxDelayMs: o.maxDelayMs },
      retryAfterCapMs: o.retryAfterCapMs,
      maxResponseBytes: o.maxResponseBytes,
      maxRedirects: o.maxRedirects,
      onRetry,
    };
    this.#deadlineMs = o.deadlineMs;
    this.#deadline = timeout(o.deadlineMs, TimeoutStrategy.Cooperative);
    this.#perAttempt = attemptTimeout(this.#policy);
    this.#resolveOrigin = resolveOrigin ?? ((_project, host) => `https://${host}`);
    this.#upstreams = new Map((upstreams ?? []).map((u) => [u.project, u]));
    // Unreachable, 5xx, timeouts: the wiki is failing. Any other answer (404, too large) shows it is up.
    const failing = (error: unknown): boolean => error instanceof UpstreamUnavailable || error instanceof UpstreamTimeout;
    this.#circuits = o.breakerThreshold === 0 ? undefined : new ProjectCircuits({ threshold: o.breakerThreshold, cooldownMs: o.breakerCooldownMs }, failing);
  }

  get userAgent(): string {
    return this.#policy.userAgent;
  }

  /**
   * The article `title` (normalised, with spaces) of `project`. Throws UpstreamNotFound,
   * UpstreamUnavailable, UpstreamTimeout, UpstreamTooLarge or UnknownProject; when `signal`
   * aborts, rejects with its reason.
   */
  async fetchArticle(project: string, title: string, options: { signal?: AbortSignal } = {}): Promise<UpstreamArticle> {
    const wiki = this.#wikiOf(project);
    if (wiki === undefined) throw new UnknownProject(project, title);
    const fetch = (): Promise<UpstreamArticle> => this.#fetch(project, wiki, title, options.signal);
    return this.#circuits === undefined ? fetch() : this.#circuits.run(project, title, fetch);
  }

  /**
   * What a configured wiki says of itself (action=query&meta=siteinfo: its name, language,
   * direction, main page URL), for the catalog. Throws as `fetchArticle` does.
   */
  async fetchSiteinfo(project: string, options: { signal?: AbortSignal } = {}): Promise<SiteinfoData> {
    const wiki = this.#wikiOf(project);
    if (wiki === undefined) throw new UnknownProject(project, '(siteinfo)');
    const answer = await this.#getOnce(project, '(siteinfo)', `${wiki.apiUrl}?action=query&meta=siteinfo&siprop=general&format=xml`, ACCEPT_XML, options.signal);
    try {
      return parseSiteinfo(answer.body);
    } catch (error) {
      throw new UpstreamUnavailable(project, '(siteinfo)', `its siteinfo cannot be read: ${(error as Error).message}`);
    }
  }

  /**
   * A configured wiki of its own's language, from its siteinfo: its code says nothing (companywiki
   * would read as the language "company"). Undefined while the wiki does not answer.
   */
  #languageOf(project: string): Promise<string | undefined> {
    let known = this.#languages.get(project);
    if (known === undefined) {
      known = this.fetchSiteinfo(project).then(
        (siteinfo) => siteinfo.language,
        () => {
          this.#languages.delete(project);
          return undefined;
        },
      );
      this.#languages.set(project, known);
    }
    return known;
  }

  /** The REST and action APIs of a project's wiki, the site its article URLs are on, and whether it is a wiki of its own. */
  #wikiOf(project: string): { restUrl: string; apiUrl: string; siteUrl: string; ownLanguage: boolean } | undefined {
    const configured = this.#upstreams.get(project);
    if (configured !== undefined) {
      // A mirror of a Wikimedia wiki keeps that wiki's URLs; another wiki's are its own, even
      // when its code looks like one of a family's (companywiki is no company.wikipedia.org).
      const wikimedia = wikiData(project)?.host;
      return { restUrl: configured.restUrl, apiUrl: configured.apiUrl, siteUrl: wikimedia === undefined ? configured.origin : `https://${wikimedia}`, ownLanguage: wikimedia === undefined };
    }
    const host = hostOfProject(project);
    if (host === undefined) return undefined;
    const origin = this.#resolveOrigin(project, host);
    return { restUrl: `${origin}/w/rest.php`, apiUrl: `${origin}/w/api.php`, siteUrl: `https://${host}`, ownLanguage: false };
  }

  /**
   * The latest revision of `title` (normalised, with spaces): one request for the page's metadata
   * without its content (`GET /w/rest.php/v1/page/{title}/bare`), what revalidating a stored
   * article costs the wiki. Resilient and bounded as `fetchArticle` is, behind the same circuit;
   * throws the same errors.
   */
  async fetchLatest(project: string, title: string, options: { signal?: AbortSignal } = {}): Promise<LatestRevision> {
    const wiki = this.#wikiOf(project);
    if (wiki === undefined) throw new UnknownProject(project, title);
    const fetch = async (): Promise<LatestRevision> => {
      const page = await this.#getOnce(project, title, `${wiki.restUrl}/v1/page/${toPathSegment(title)}/bare`, ACCEPT_JSON, options.signal);
      const meta = readMeta(page.body, project, wiki.siteUrl, title);
      return { name: meta.name, revision: meta.revision, timestamp: meta.dateModified };
    };
    return this.#circuits === undefined ? fetch() : this.#circuits.run(project, title, fetch);
  }

  /**
   * One resource of `project`'s wiki (about `title`, for the errors), with the fetches' retries and
   * per-attempt timeout, within one overall deadline; `caller` aborts it with its own reason.
   */
  #getOnce(project: string, title: string, url: string, accept: string, caller: AbortSignal | undefined): ReturnType<typeof resilientGet> {
    const startedAt = Date.now();
    return this.#deadline.execute(async ({ signal: inTime }) => {
      const scope: FetchScope = {
        project,
        title,
        signal: inTime,
        deadlineAt: startedAt + this.#deadlineMs,
        startedAt,
        abortReason: () => (caller?.aborted === true ? caller.reason : new UpstreamTimeout(project, title, this.#deadlineMs)),
      };
      return resilientGet(url, accept, this.#policy, scope, this.#perAttempt);
    }, caller);
  }

  async #fetch(project: string, wiki: { restUrl: string; siteUrl: string; ownLanguage: boolean }, title: string, caller: AbortSignal | undefined): Promise<UpstreamArticle> {
    const base = `${wiki.restUrl}/v1/page/${toPathSegment(title)}`;
    const startedAt = Date.now();
    // One deadline for the whole fetch, both routes, retries and backoff included; its signal also
    // aborts with the caller's.
    return this.#deadline.execute(async ({ signal: inTime }) => {
      const siblings = new AbortController();
      const scope: FetchScope = {
        project,
        title,
        signal: AbortSignal.any([inTime, siblings.signal]),
        deadlineAt: startedAt + this.#deadlineMs,
        startedAt,
        abortReason: () => {
          if (caller?.aborted === true) return caller.reason;
          if (inTime.aborted) return new UpstreamTimeout(project, title, this.#deadlineMs);
          return siblings.signal.reason;
        },
      };
      const cancelSibling = (error: unknown): never => {
        siblings.abort(error);
        throw error;
      };
      const fetchPair = async (): Promise<UpstreamArticle> => {
        const [page, html] = await Promise.all([
          resilientGet(base, ACCEPT_JSON, this.#policy, scope, this.#perAttempt).catch(cancelSibling),
          resilientGet(`${base}/html`, ACCEPT_HTML, this.#policy, scope, this.#perAttempt).catch(cancelSibling),
        ]);
        if (html.contentType !== undefined && !html.contentType.includes('html')) {
          throw new UpstreamUnavailable(project, title, `the HTML route answered ${html.contentType}`);
        }
        const meta = readMeta(page.body, project, wiki.siteUrl, title);
        if (wiki.ownLanguage) {
          const language = await this.#languageOf(project);
          if (language !== undefined) meta.language = language;
        }
        return { html: html.body, meta };
      };

      // The two routes are read at once, so an edit in between can pair one revision's metadata
      // with another's HTML. Asking again almost always yields a matching pair; if not, the HTML
      // wins, since it is the content we serve.
      let article = await fetchPair();
      const declared = revisionOfHtml(article.html);
      if (declared !== undefined && declared !== article.meta.revision) {
        article = await fetchPair();
        const revision = revisionOfHtml(article.html);
        if (revision !== undefined) article.meta.revision = revision;
      }
      return article;
    }, caller);
  }
}

/** The revision Parsoid HTML declares in `<html about=".../revision/N">` (Specs/HTML §Headers). */
export function revisionOfHtml(html: string): number | undefined {
  const head = html.slice(0, 4096);
  const match = /<html\b[^>]*?\sabout="[^"]*\/revision\/(\d+)"/i.exec(head);
  return match === null ? undefined : Number(match[1]);
}

function readMeta(body: string, project: string, siteUrl: string, requested: string): UpstreamMeta {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new UpstreamUnavailable(project, requested, 'the page metadata is not JSON');
  }
  const parsed = PageResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UpstreamUnavailable(project, requested, `unexpected page metadata: field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  const page = parsed.data;
  const meta: UpstreamMeta = {
    project,
    identifier: page.id,
    name: page.title,
    revision: page.latest.id,
    dateModified: page.latest.timestamp.replace(/\.\d+Z$/, 'Z'),
    url: `${siteUrl}/wiki/${toWikiPath(page.title)}`,
    siteUrl,
    contentModel: page.content_model,
  };
  if (page.title !== requested) meta.redirectedFrom = requested;
  if (page.license !== undefined) meta.license = { name: page.license.title, url: page.license.url };
  return meta;
}
