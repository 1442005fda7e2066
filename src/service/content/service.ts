/**
 * Finds the Articles for one title: from the store (parsed once per revision and engine version,
 * then served from the cached JSON text), or, when the store has none and fetching is on, from
 * the project's live wiki (one fetch per article in flight, the result stored).
 *
 * Which stored rows a title has is remembered briefly (lookup-cache.ts); the Article texts are
 * read only when asked for (`Found.json()`), so a reply the caller already holds costs no read.
 *
 * Which project is asked upstream: the `is_part_of.identifier` filter if given; otherwise the
 * Wikipedia of the `in_language.identifier` filter (`fr` → `frwiki`); otherwise `defaultProject`
 * (enwiki). The store is always searched across every project that matches the filters.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { hostOfProject, projectOfHost, type Article, type PageLinks } from '../../index.js';
import { ParseFailedError, type EngineClient } from '../engine-client.js';
import { HttpError } from '../errors.js';
import type { Clock } from '../clock.js';
import type { Metrics } from '../metrics.js';
import { safeJson } from '../safe-json.js';
import { pageLinksInput, storedPageLinks } from './enterprise/article-reply.js';
import { ENGINE_VERSION } from './engine-version.js';
import { selectFields, type Selection } from './fields.js';
import { LookupCache } from './lookup-cache.js';
import { firstProjects, type Criteria } from './request.js';
import { SingleFlight } from './single-flight.js';
import type { PageChange } from './follow.js';
import { Freshness, type Revalidation } from './freshness.js';
import type { ArticleStore, FoundRow, SourceRow, StoredRow } from './store.js';
import { TextCache } from './text-cache.js';
import { InvalidTitleError, normalizeTitle } from './title.js';
import { UpstreamError, UpstreamLoader, UpstreamUnavailable, WikiClient, upstreamEnvelope, type UpstreamArticle, type WikiClientOptions } from './upstream/index.js';

export interface Found {
  project: string;
  /** The normalised title it is stored (or was fetched) under. */
  title: string;
  revision: number;
  /** Epoch milliseconds when the wiki last confirmed this revision (fetched now: now). */
  checkedAt: number;
  /** The revision's date (ISO 8601), when known. */
  modified: string | undefined;
  /** The Article as JSON text: from memory, the database, or a parse of the stored source. */
  json(): Promise<string>;
}

/** A stored source as /v2/articles answers it: with its age, as `Found` has it. */
export type FoundSource = SourceRow & Pick<Found, 'checkedAt' | 'modified'>;

export interface ContentServiceOptions {
  store: ArticleStore;
  clock: Clock;
  /** How long a title's stored rows are reused without asking the database (lookup-cache.ts). */
  lookupMaxAgeMs: number;
  engine: EngineClient;
  metrics: Metrics;
  /** undefined: no upstream fetching (offline). */
  wiki?: WikiClientOptions | undefined;
  defaultProject?: string;
  /** Bytes of Article JSON text kept in memory (most recently used); 0 turns it off. */
  memoryCacheBytes?: number;
  /**
   * How long a stored article is served without asking its wiki whether it is still current
   * (freshness.ts); 0: ask on every request. Default 24 h. Unused when offline.
   */
  maxAgeMs?: number;
  /** Told when a background revalidation failed (the article is still served). */
  onRevalidationFailure?: (project: string, title: string, error: unknown) => void;
}

export class ContentService {
  readonly #store: ArticleStore;
  readonly #engine: EngineClient;
  readonly #metrics: Metrics;
  readonly #loader: UpstreamLoader | undefined;
  readonly #clock: Clock;
  /** Revalidation of stored articles against their wikis; undefined when offline. */
  readonly freshness: Freshness | undefined;
  readonly #defaultProject: string;
  readonly #reparse = new SingleFlight<string, { json: string; parsed: boolean }>();
  readonly #readLinks = new SingleFlight<string, PageLinks>();
  readonly #memory: TextCache;
  readonly #lookup: LookupCache;
  /**
   * normalizeTitle per (raw title, project), or why the title is invalid: on the hot path a
   * request normalises its title three or four times (candidates, then a check per stored row),
   * 6% of a cached request's CPU, and popular requests repeat the same few titles.
   */
  readonly #normalized = new LRUCache<string, string | InvalidTitleError>({ max: 2_000 });
  /** The JSON text of each Article the loader produced, so it is stringified once (by the parser). */
  readonly #texts = new WeakMap<Article, string>();

  constructor(options: ContentServiceOptions) {
    this.#store = options.store;
    this.#engine = options.engine;
    this.#metrics = options.metrics;
    this.#defaultProject = options.defaultProject ?? 'enwiki';
    this.#memory = new TextCache(options.memoryCacheBytes ?? 64 * 1024 * 1024);
    this.#lookup = new LookupCache({ clock: options.clock, maxAgeMs: options.lookupMaxAgeMs, load: (title) => this.#store.find([title]) });
    // One client for fetches and revalidations: they share each project's circuit.
    const client = options.wiki === undefined ? undefined : new CountingWikiClient(options.wiki, this.#metrics, new ProjectLabels(this.#store, this.#defaultProject));
    this.#loader =
      client === undefined
        ? undefined
        : new UpstreamLoader({
            client,
            parseArticle: async (envelope) => {
              const json = await this.#timedParse(envelope, 'upstream');
              const article = JSON.parse(json) as Article;
              this.#texts.set(article, json);
              return article;
            },
            save: (article, fetched) => this.#saveFetched(article, fetched),
          });
    this.#clock = options.clock;
    const loader = this.#loader;
    this.freshness =
      loader === undefined || client === undefined
        ? undefined
        : new Freshness({
            store: this.#store,
            clock: options.clock,
            maxAgeMs: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS,
            latest: (project, title) => client.fetchLatest(project, title),
            refresh: async (project, title) => void (await loader.load(project, title)),
            changed: (_project, title) => this.#lookup.invalidate(title),
            ...(options.onRevalidationFailure === undefined ? {} : { onFailure: options.onRevalidationFailure }),
          });
  }

  get upstreamEnabled(): boolean {
    return this.#loader !== undefined;
  }

  /**
   * Forgets what is remembered about this article's stored rows, so the next request reads them
   * from the database. Called for every write in this process (the store's write listeners); a
   * cross-process notification (another server's import) can call it too. Entries are per title
   * across projects, so `project` only says which write it was.
   */
  invalidate(_project: string, title: string): void {
    this.#lookup.invalidate(title);
  }

  /**
   * The matching Articles; throws HttpError 400 (bad title), 404 (nowhere), 502/504 (wiki failing).
   * `signal` aborts an upstream fetch; a function is called only if one is needed (an
   * AbortController per request was 5% of a cached request's CPU).
   */
  async find(rawTitle: string, criteria: Criteria, signal?: AbortSignal | (() => AbortSignal)): Promise<Found[]> {
    if (criteria.contradictory) throw notFound(rawTitle, criteria, this.upstreamEnabled);
    // Cut to the limit before reading or parsing any Article.
    const rows = firstProjects(await this.#storedMatches(rawTitle, criteria), criteria.limit);
    if (rows.length > 0) {
      return rows.map((row) => {
        this.freshness?.consider(row);
        return { project: row.project, title: row.title, revision: row.revision, checkedAt: row.checkedAt, modified: row.modified, json: () => this.#stored(row) };
      });
    }
    if (this.#loader === undefined) throw notFound(rawTitle, criteria, false);

    const project = criteria.project ?? (criteria.language === undefined ? this.#defaultProject : `${criteria.language}wiki`);
    if (criteria.language !== undefined && languageOf(project) !== criteria.language) throw notFound(rawTitle, criteria, true);
    const title = this.#titleFor(rawTitle, project);
    let article: Article;
    try {
      article = await this.#loader.load(project, title, signal === undefined ? {} : { signal: typeof signal === 'function' ? signal() : signal });
    } catch (error) {
      if (error instanceof UpstreamError) {
        const retry = 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number' ? error.retryAfterSeconds : undefined;
        throw new HttpError(error.status, error.message, retry);
      }
      throw error;
    }
    const json = this.#texts.get(article) ?? JSON.stringify(article);
    return [
      {
        project,
        title,
        revision: article.version?.identifier ?? 0,
        checkedAt: this.#clock.now().getTime(),
        modified: article.date_modified,
        json: () => Promise.resolve(json),
      },
    ];
  }

  /**
   * The stored sources (envelope metadata and body) of the matching articles, for the Enterprise
   * Article model (/v2/articles), with when the wiki last confirmed each (its `Age`). Found exactly
   * as `find` finds Articles: a stored one is revalidated by age in the background; what is not
   * stored is fetched, parsed and stored by the same path, then read back from the store.
   */
  async sources(rawTitle: string, criteria: Criteria, signal?: AbortSignal | (() => AbortSignal)): Promise<FoundSource[]> {
    const stored = criteria.contradictory ? [] : firstProjects(await this.#storedMatches(rawTitle, criteria), criteria.limit);
    for (const row of stored) this.freshness?.consider(row);
    const found: readonly (FoundRow | Found)[] = stored.length > 0 ? stored : await this.find(rawTitle, criteria, signal);
    const sources = await Promise.all(
      found.map(async (f) => {
        let source = await this.#store.source(f.project, f.title);
        if (source === undefined && 'json' in f) {
          // Fetched through a redirect: stored under the article's own name, not the one asked for.
          const name = (JSON.parse(selectFields(await f.json(), NAME_ONLY)) as { name?: string }).name;
          source = name === undefined ? undefined : await this.#store.source(f.project, normalizeTitle(name, f.project));
        }
        return source === undefined ? undefined : { ...source, checkedAt: f.checkedAt, modified: f.modified };
      }),
    );
    const present = sources.filter((s): s is FoundSource => s !== undefined);
    if (present.length === 0) throw notFound(rawTitle, criteria, this.upstreamEnabled);
    return present;
  }

  /**
   * A change the followed stream announced (follow.ts): the stored article it names is refreshed
   * if older than the announced revision (revalidated, when the event names none). Undefined:
   * nothing of it is stored, or the service is offline.
   */
  async followChange(change: PageChange): Promise<Revalidation | undefined> {
    if (this.freshness === undefined) return undefined;
    const title = this.#normalize(change.title, change.project);
    if (title instanceof InvalidTitleError) return undefined;
    const [row] = await this.#store.find([title], change.project);
    if (row === undefined) return undefined;
    if (change.revision === undefined) return this.freshness.revalidate(row, true);
    if (row.revision >= change.revision) return 'skipped';
    return this.freshness.refresh(change.project, title, change.revision);
  }

  /**
   * The categories and templates of a stored article, read from its HTML, for an Enterprise
   * Article whose metadata does not list them (enterprise/article-reply.ts); undefined when it
   * lists both or there is no HTML. Read on a worker thread once per revision and engine version
   * (concurrent requests share the reading) and saved in the row; then read from there.
   */
  async pageLinks(source: SourceRow): Promise<PageLinks | undefined> {
    const input = pageLinksInput(source);
    if (input === undefined) return undefined;
    const saved = StoredPageLinksSchema.safeParse(safeJson(source.page_links ?? 'null'));
    if (saved.success && saved.data.engine === ENGINE_VERSION) return { categories: saved.data.categories, templates: saved.data.templates };
    return this.#readLinks.run(memoryKey(source.project, source.title, source.revision), async () => {
      const links = await this.#engine.pageLinks(input.html, input.base);
      await this.#store.savePageLinks(source.project, source.title, source.revision, storedPageLinks(links));
      return links;
    });
  }

  /** The Article JSON text of a stored row for this engine version (cached, or parsed and saved): what snapshots are built from. */
  articleJson(row: StoredRow): Promise<string> {
    return this.#stored(row);
  }

  /** Stored articles of every project whose normalised title is this one, filtered. */
  async #storedMatches(rawTitle: string, criteria: Criteria): Promise<FoundRow[]> {
    let candidates: string[];
    if (criteria.project !== undefined) {
      candidates = [this.#titleFor(rawTitle, criteria.project)];
    } else {
      // Projects differ only in whether the first letter is capitalised (wiktionary keeps it).
      candidates = [...new Set([this.#titleFor(rawTitle, 'enwiki'), this.#titleFor(rawTitle, 'enwiktionary')])];
    }
    const rows = (await Promise.all(candidates.map((title) => this.#lookup.rows(title)))).flat();
    return rows.filter((row) => {
      if (criteria.project !== undefined && row.project !== criteria.project) return false;
      if (criteria.language !== undefined && row.language !== criteria.language) return false;
      return this.#normalize(rawTitle, row.project) === row.title;
    });
  }

  /** The normalised title, or the InvalidTitleError saying why there is none (remembered either way). */
  #normalize(rawTitle: string, project: string): string | InvalidTitleError {
    const key = `${project}\u0000${rawTitle}`;
    let title = this.#normalized.get(key);
    if (title === undefined) {
      try {
        title = normalizeTitle(rawTitle, project);
      } catch (error) {
        if (!(error instanceof InvalidTitleError)) throw error;
        title = error;
      }
      this.#normalized.set(key, title);
    }
    return title;
  }

  /** The normalised title; a 400 naming the problem when it is not a valid title. */
  #titleFor(rawTitle: string, project: string): string {
    const title = this.#normalize(rawTitle, project);
    if (title instanceof InvalidTitleError) throw new HttpError(400, title.message);
    return title;
  }

  /** The Article JSON text of a stored row. */
  async #stored(row: StoredRow): Promise<string> {
    const key = memoryKey(row.project, row.title, row.revision);
    const remembered = this.#memory.get(key);
    if (remembered !== undefined) {
      this.#metrics.articleCache.inc({ result: 'hit' });
      return remembered;
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
        // Another process replaced (or deleted) it after this process last read the title's rows.
        this.#lookup.invalidate(row.title);
        throw new ReplacedError(row);
      }
      const text = await this.#parseStored(source);
      await this.#store.saveParsed(source.project, source.title, source.revision, ENGINE_VERSION, text);
      this.#memory.set(key, text);
      return { json: text, parsed: true };
    });
    this.#metrics.articleCache.inc({ result: parsed ? 'miss' : 'hit' });
    return json;
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

  /**
   * A stored source parsed again. Over the engine's work limits it is a 422 naming the article:
   * such a page is refused at import and at fetch, but a store filled before the limits existed
   * may still hold one.
   */
  async #parseStored(source: SourceRow): Promise<string> {
    try {
      return await this.#timedParse(envelopeOf(source), 'store');
    } catch (error) {
      if (error instanceof ParseFailedError && error.code === 'INPUT_TOO_COMPLEX') {
        throw new HttpError(422, `the stored article "${source.title}" of ${source.project} cannot be processed: ${error.message}`);
      }
      throw error;
    }
  }

  async #timedParse(envelope: Record<string, unknown>, source: 'store' | 'upstream'): Promise<string> {
    const end = this.#metrics.parseDuration.startTimer({ source });
    try {
      return await this.#engine.parseEnvelope(envelope);
    } finally {
      end();
    }
  }
}

/**
 * A stored row named a revision the store no longer has: replaced by a newer one since its title
 * was looked up. Asking again finds the new one (the lookup was dropped); a 404 if it surfaces.
 */
export class ReplacedError extends HttpError {
  constructor(row: StoredRow) {
    super(404, `no article "${row.title}" at revision ${row.revision} in ${row.project} (replaced meanwhile; ask again)`);
  }
}

/**
 * Projects that may name a metric series. The project code of a request is the client's to
 * choose, and any `[a-z]+wiki` is asked upstream, so labelling by it let every made-up code add a
 * series to /metrics and to the process for good (issue 22). Known are the default project, the
 * projects the store holds (the catalog) and those whose wiki answered with an article; at most
 * MAX_PROJECT_LABELS of them (there are about 1,070 Wikimedia wikis). Everything else is `other`.
 */
export class ProjectLabels {
  static readonly MAX_PROJECT_LABELS = 1_100;
  static readonly OTHER = 'other';
  readonly #known = new Set<string>();

  constructor(
    private readonly store: Pick<ArticleStore, 'hasProject'>,
    defaultProject: string,
  ) {
    this.#known.add(defaultProject);
  }

  /** The label of a fetch from `project`; `answered`: the wiki gave an article, so it exists. */
  async label(project: string, answered: boolean): Promise<string> {
    if (this.#known.has(project)) return project;
    if (this.#known.size >= ProjectLabels.MAX_PROJECT_LABELS) return ProjectLabels.OTHER;
    // Negative answers are not kept: a project becomes known when its first article is stored.
    const known = answered || (await this.store.hasProject(project).catch(() => false));
    if (!known) return ProjectLabels.OTHER;
    this.#known.add(project);
    return project;
  }
}

/** Counts each real fetch once, by project (ProjectLabels) and outcome (the loader's waiters share one). */
class CountingWikiClient extends WikiClient {
  constructor(
    options: WikiClientOptions,
    private readonly metrics: Metrics,
    private readonly labels: ProjectLabels,
  ) {
    super(options);
  }

  override async fetchArticle(project: string, title: string, options: { signal?: AbortSignal } = {}): Promise<UpstreamArticle> {
    try {
      const fetched = await super.fetchArticle(project, title, options);
      this.metrics.upstreamFetches.inc({ project: await this.labels.label(project, true), outcome: 'ok' });
      return fetched;
    } catch (error) {
      this.metrics.upstreamFetches.inc({ project: await this.labels.label(project, false), outcome: outcomeOf(error) });
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

/** Page links as saved in the row (pageLinks): with the engine version that read them. */
const PageLinkSchema = z.object({ name: z.string(), url: z.string().optional() });
const StoredPageLinksSchema = z.object({ engine: z.string(), categories: z.array(PageLinkSchema), templates: z.array(PageLinkSchema) });

/** `fields: ["name"]`: the one member `sources` reads of a fetched Article. */
const NAME_ONLY: Selection = new Map([['name', true]]);

/** `--max-age`'s default: a stored article is asked about once a day at most (when it is read). */
export const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function memoryKey(project: string, title: string, revision: number): string {
  return `${project}\u0000${title}\u0000${revision}`;
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
