/**
 * Finds the Articles for one title: from the store (parsed once per revision and engine version,
 * then served from the cached JSON text), or, when the store has none and fetching is on, from
 * the project's live wiki (one fetch per article in flight, the result stored).
 *
 * Which project is asked upstream: the `is_part_of.identifier` filter if given; otherwise the
 * Wikipedia of the `in_language.identifier` filter (`fr` → `frwiki`); otherwise `defaultProject`
 * (enwiki). The store is always searched across every project that matches the filters.
 */
import { hostOfProject, projectOfHost } from '../../engine/site.js';
import type { Article } from '../../schema/article.js';
import { HttpError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { ENGINE_VERSION } from './engine-version.js';
import { ParseFailedError, type ArticleParser } from './parser.js';
import { firstProjects, type Criteria } from './request.js';
import { SingleFlight } from './single-flight.js';
import type { ArticleStore, SourceRow, StoredRow } from './store.js';
import { TextCache } from './text-cache.js';
import { InvalidTitleError, normalizeTitle } from './title.js';
import { UpstreamError, UpstreamLoader, UpstreamUnavailable, WikiClient, upstreamEnvelope, type UpstreamArticle, type WikiClientOptions } from './upstream/index.js';

export interface Found {
  project: string;
  revision: number;
  /** The Article as JSON text. */
  json: string;
}

export interface ContentServiceOptions {
  store: ArticleStore;
  parser: ArticleParser;
  metrics: Metrics;
  /** undefined: no upstream fetching (offline). */
  wiki?: WikiClientOptions | undefined;
  defaultProject?: string;
  /** Bytes of Article JSON text kept in memory (most recently used); 0 turns it off. */
  memoryCacheBytes?: number;
}

export class ContentService {
  readonly #store: ArticleStore;
  readonly #parser: ArticleParser;
  readonly #metrics: Metrics;
  readonly #loader: UpstreamLoader | undefined;
  readonly #defaultProject: string;
  readonly #reparse = new SingleFlight<string, { json: string; parsed: boolean }>();
  readonly #memory: TextCache;
  /** The JSON text of each Article the loader produced, so it is stringified once (by the parser). */
  readonly #texts = new WeakMap<Article, string>();

  constructor(options: ContentServiceOptions) {
    this.#store = options.store;
    this.#parser = options.parser;
    this.#metrics = options.metrics;
    this.#defaultProject = options.defaultProject ?? 'enwiki';
    this.#memory = new TextCache(options.memoryCacheBytes ?? 64 * 1024 * 1024);
    this.#loader =
      options.wiki === undefined
        ? undefined
        : new UpstreamLoader({
            client: new CountingWikiClient(options.wiki, this.#metrics),
            parseArticle: async (envelope) => {
              const json = await this.#timedParse(envelope as Record<string, unknown>, 'upstream');
              const article = JSON.parse(json) as Article;
              this.#texts.set(article, json);
              return article;
            },
            save: (article, fetched) => this.#saveFetched(article, fetched),
          });
  }

  get upstreamEnabled(): boolean {
    return this.#loader !== undefined;
  }

  /** The matching Articles; throws HttpError 400 (bad title), 404 (nowhere), 502/504 (wiki failing). */
  async find(rawTitle: string, criteria: Criteria, signal?: AbortSignal): Promise<Found[]> {
    if (criteria.contradictory) throw notFound(rawTitle, criteria, this.upstreamEnabled);
    // Cut to the limit before reading or parsing any Article.
    const rows = firstProjects(await this.#storedMatches(rawTitle, criteria), criteria.limit);
    if (rows.length > 0) return Promise.all(rows.map((row) => this.#stored(row)));
    if (this.#loader === undefined) throw notFound(rawTitle, criteria, false);

    const project = criteria.project ?? (criteria.language === undefined ? this.#defaultProject : `${criteria.language}wiki`);
    if (criteria.language !== undefined && languageOf(project) !== criteria.language) throw notFound(rawTitle, criteria, true);
    const title = titleFor(rawTitle, project);
    let article: Article;
    try {
      article = await this.#loader.load(project, title, signal === undefined ? {} : { signal });
    } catch (error) {
      if (error instanceof UpstreamError) {
        const retry = 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number' ? error.retryAfterSeconds : undefined;
        throw new HttpError(error.status, error.message, retry);
      }
      if (error instanceof ParseFailedError) throw new HttpError(502, `the ${project} wiki's answer for "${title}" cannot be parsed: ${error.message}`);
      throw error;
    }
    const json = this.#texts.get(article) ?? JSON.stringify(article);
    return [{ project, revision: article.version?.identifier ?? 0, json }];
  }

  /** Stored articles of every project whose normalised title is this one, filtered. */
  async #storedMatches(rawTitle: string, criteria: Criteria): Promise<StoredRow[]> {
    let candidates: string[];
    if (criteria.project !== undefined) {
      candidates = [titleFor(rawTitle, criteria.project)];
    } else {
      // Projects differ only in whether the first letter is capitalised (wiktionary keeps it).
      candidates = [...new Set([titleFor(rawTitle, 'enwiki'), titleFor(rawTitle, 'enwiktionary')])];
    }
    const rows = await this.#store.find(candidates, criteria.project);
    return rows.filter((row) => {
      if (criteria.language !== undefined && row.language !== criteria.language) return false;
      try {
        return normalizeTitle(rawTitle, row.project) === row.title;
      } catch {
        return false;
      }
    });
  }

  async #stored(row: StoredRow): Promise<Found> {
    const key = memoryKey(row.project, row.title, row.revision);
    const remembered = this.#memory.get(key);
    if (remembered !== undefined) {
      this.#metrics.articleCache.inc({ result: 'hit' });
      return { project: row.project, revision: row.revision, json: remembered };
    }
    // The database read and the parse share one flight per revision: a request that missed just
    // before another finished parsing reads the saved Article instead of parsing it again.
    const { json, parsed } = await this.#reparse.run(key, async () => {
      const cached = await this.#store.parsed(row.project, row.title, row.revision, ENGINE_VERSION);
      if (cached !== undefined) {
        this.#memory.set(key, cached);
        return { json: cached, parsed: false };
      }
      const source = await this.#store.source(row.project, row.title);
      if (source === undefined || source.revision !== row.revision) {
        throw new HttpError(404, `no article "${row.title}" at revision ${row.revision} in ${row.project} (replaced meanwhile; ask again)`);
      }
      const text = await this.#timedParse(envelopeOf(source), 'store');
      await this.#store.saveParsed(source.project, source.title, source.revision, ENGINE_VERSION, text);
      this.#memory.set(key, text);
      return { json: text, parsed: true };
    });
    this.#metrics.articleCache.inc({ result: parsed ? 'miss' : 'hit' });
    return { project: row.project, revision: row.revision, json };
  }

  async #saveFetched(article: Article, fetched: UpstreamArticle): Promise<void> {
    const { meta } = fetched;
    const { article_body: _body, ...envelopeMeta } = upstreamEnvelope(fetched);
    const json = this.#texts.get(article) ?? JSON.stringify(article);
    await this.#store.upsert(
      {
        project: meta.project,
        title: normalizeTitle(meta.name, meta.project),
        revision: meta.revision,
        pageId: meta.identifier,
        language: article.in_language?.identifier,
        html: fetched.html,
        meta: envelopeMeta,
        origin: 'upstream',
      },
      { engineVersion: ENGINE_VERSION, json },
    );
  }

  async #timedParse(envelope: Record<string, unknown>, source: 'store' | 'upstream'): Promise<string> {
    const end = this.#metrics.parseDuration.startTimer({ source });
    try {
      return await this.#parser.parse(envelope);
    } finally {
      end();
    }
  }
}

/** Counts each real fetch once, by outcome (the loader's waiters share one). */
class CountingWikiClient extends WikiClient {
  constructor(
    options: WikiClientOptions,
    private readonly metrics: Metrics,
  ) {
    super(options);
  }

  override async fetchArticle(project: string, title: string, options: { signal?: AbortSignal } = {}): Promise<UpstreamArticle> {
    try {
      const fetched = await super.fetchArticle(project, title, options);
      this.metrics.upstreamFetches.inc({ project, outcome: 'ok' });
      return fetched;
    } catch (error) {
      this.metrics.upstreamFetches.inc({ project, outcome: outcomeOf(error) });
      throw error;
    }
  }
}

/** The metric label of a failed fetch; a refusal by the open circuit never reached the wiki. */
function outcomeOf(error: unknown): string {
  if (error instanceof UpstreamUnavailable && error.retryAfterSeconds !== undefined) return 'CIRCUIT_OPEN';
  return error instanceof UpstreamError ? error.code : 'error';
}

/** The envelope a stored article was delivered as, for parsing it again. */
export function envelopeOf(source: SourceRow): Record<string, unknown> {
  const body: Record<string, string> = {};
  if (source.html !== null) body['html'] = source.html;
  if (source.wikitext !== null) body['wikitext'] = source.wikitext;
  return { ...source.meta, article_body: body };
}

function memoryKey(project: string, title: string, revision: number): string {
  return `${project}\u0000${title}\u0000${revision}`;
}

function titleFor(rawTitle: string, project: string): string {
  try {
    return normalizeTitle(rawTitle, project);
  } catch (error) {
    if (error instanceof InvalidTitleError) throw new HttpError(400, error.message);
    throw error;
  }
}

function languageOf(project: string): string | undefined {
  const host = hostOfProject(project);
  return host === undefined ? undefined : projectOfHost(host)?.language;
}

function notFound(rawTitle: string, criteria: Criteria, upstream: boolean): HttpError {
  const where: string[] = [];
  if (criteria.project !== undefined) where.push(`project ${criteria.project}`);
  if (criteria.language !== undefined) where.push(`language ${criteria.language}`);
  const scope = where.length === 0 ? 'in any project' : `for ${where.join(' and ')}`;
  const suffix = upstream ? '' : ' (the article store only: upstream fetching is off)';
  return new HttpError(404, `no article "${decodeForMessage(rawTitle)}" ${scope}${suffix}`);
}

function decodeForMessage(raw: string): string {
  try {
    return decodeURIComponent(raw).replace(/_/g, ' ');
  } catch {
    return raw;
  }
}
