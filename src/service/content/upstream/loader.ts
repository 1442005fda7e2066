/**
 * Fetch → parse → save for articles the store does not have, at most once in flight per article.
 *
 * The shared work deliberately ignores every caller's AbortSignal: if the first of fifty waiting
 * requests disconnects, the other forty-nine still need the article (and the store still wants
 * it). Each caller only stops *waiting* when its own signal aborts.
 */
import type { Article } from '../../../index.js';
import { ParseFailedError } from '../../engine-client.js';
import { SingleFlight } from '../single-flight.js';
import { toDbKey } from '../title.js';
import { untilAborted } from './abort.js';
import { upstreamEnvelope } from './envelope.js';
import { UpstreamTooComplex, UpstreamUnavailable } from './errors.js';
import type { UpstreamArticle, WikiClient } from './wiki-client.js';

export interface UpstreamLoaderOptions {
  client: WikiClient;
  /** Stores a freshly fetched article; runs once per fetch, inside the single flight. */
  save?: (article: Article, fetched: UpstreamArticle) => Promise<void>;
  /** The fetched article's envelope → Article: the service's engine client (engine-client.ts), off the event loop. */
  parseArticle: (envelope: Record<string, unknown>) => Promise<Article>;
}

export class UpstreamLoader {
  readonly #flight = new SingleFlight<string, Article>();
  readonly #client: WikiClient;
  readonly #save: UpstreamLoaderOptions['save'];
  readonly #parse: (envelope: Record<string, unknown>) => Promise<Article>;

  constructor(options: UpstreamLoaderOptions) {
    this.#client = options.client;
    this.#save = options.save;
    this.#parse = options.parseArticle;
  }

  /**
   * The Article for a normalised `title` of `project`, fetched from the wiki and saved. Rejects
   * with the client's typed errors, UpstreamUnavailable when the wiki's HTML cannot be parsed,
   * the `save` hook's error, or the reason of `signal` when this caller stops waiting.
   */
  load(project: string, title: string, options: { signal?: AbortSignal } = {}): Promise<Article> {
    if (options.signal?.aborted === true) return Promise.reject(options.signal.reason);
    const shared = this.#flight.run(`${project}\u0000${toDbKey(title)}`, () => this.#fetchParseSave(project, title));
    return options.signal === undefined ? shared : untilAborted(shared, options.signal);
  }

  /** Articles being fetched right now. */
  get inFlight(): number {
    return this.#flight.size;
  }

  async #fetchParseSave(project: string, title: string): Promise<Article> {
    const fetched = await this.#client.fetchArticle(project, title);
    let article: Article;
    try {
      article = await this.#parse(upstreamEnvelope(fetched));
    } catch (error) {
      // The one place a parse failure becomes an upstream error. The route then answers it like
      // any UpstreamError (ContentService.find: its status, 502).
      if (error instanceof ParseFailedError) {
        // Over the engine's work limits: the page, not the wiki, is the problem (422, not 502).
        if (error.code === 'INPUT_TOO_COMPLEX') throw new UpstreamTooComplex(project, title, error.message, { cause: error });
        throw new UpstreamUnavailable(project, title, `its HTML cannot be used: ${error.message}`, { cause: error });
      }
      throw error;
    }
    if (this.#save !== undefined) await this.#save(article, fetched);
    return article;
  }
}
