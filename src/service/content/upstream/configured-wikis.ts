/**
 * The wikis configured with `--upstream` as /v2/projects lists them: a code of no Wikimedia wiki
 * (companywiki) is a project named and placed as its wiki reports itself (siteinfo: sitename,
 * content language), at the configured origin. A code of a Wikimedia wiki (a mirror) is listed
 * by the bundled table already.
 *
 * Each wiki is asked once; its answer is kept. A wiki that cannot be asked (down, not a
 * MediaWiki, offline) is listed by its code and URL alone, and asked again at a listing after
 * `retryMs`, so that a wiki that is down does not slow every listing down.
 */
import { wikiData } from '../../../index.js';
import type { Clock } from '../../clock.js';
import { language } from '../enterprise/metadata.js';
import type { Project } from '../enterprise/models.js';
import type { UpstreamOrigin } from './origins.js';
import type { WikiClient } from './wiki-client.js';

export interface ConfiguredWikisOptions {
  upstreams: readonly UpstreamOrigin[];
  /** Asks a wiki for its siteinfo; undefined when the service makes no outbound requests. */
  client: Pick<WikiClient, 'fetchSiteinfo'> | undefined;
  clock: Clock;
  /** How long a wiki that did not answer is listed bare before it is asked again. */
  retryMs: number;
  /** Told of a wiki that did not answer (for the log). */
  onError?: (project: string, error: unknown) => void;
}

interface Known {
  project: Project;
  /** Undefined when the wiki answered: kept for good. */
  retryAt?: number;
}

export class ConfiguredWikis {
  readonly #options: ConfiguredWikisOptions;
  /** Only codes of no Wikimedia wiki (a mirror is listed from the table), even those a family's pattern would place (companywiki). */
  readonly #own: readonly UpstreamOrigin[];
  readonly #known = new Map<string, Known>();
  readonly #asking = new Map<string, Promise<Project>>();

  constructor(options: ConfiguredWikisOptions) {
    this.#options = options;
    this.#own = options.upstreams.filter((u) => wikiData(u.project) === undefined);
  }

  /** The configured wikis no table places, by code. */
  projects(): Promise<Project[]> {
    return Promise.all(this.#own.map((u) => this.#project(u)));
  }

  #project(upstream: UpstreamOrigin): Promise<Project> {
    const known = this.#known.get(upstream.project);
    const now = this.#options.clock.now().getTime();
    if (known !== undefined && (known.retryAt === undefined || now < known.retryAt)) return Promise.resolve(known.project);
    const client = this.#options.client;
    const bare: Project = { identifier: upstream.project, url: upstream.origin };
    if (client === undefined) return Promise.resolve(bare);
    const asking = this.#asking.get(upstream.project);
    if (asking !== undefined) return asking;
    const answer = client.fetchSiteinfo(upstream.project).then(
      (siteinfo) => {
        const described: Project = { identifier: upstream.project };
        if (siteinfo.siteName !== undefined) described.name = siteinfo.siteName;
        described.url = upstream.origin;
        if (siteinfo.language !== undefined) {
          const named = language(siteinfo.language);
          // The wiki's own word on its direction wins over the tables'.
          described.in_language = siteinfo.dir === undefined ? named : { ...named, direction: siteinfo.dir };
        }
        this.#known.set(upstream.project, { project: described });
        return described;
      },
      (error: unknown) => {
        this.#options.onError?.(upstream.project, error);
        this.#known.set(upstream.project, { project: bare, retryAt: now + this.#options.retryMs });
        return bare;
      },
    );
    const done = (): void => void this.#asking.delete(upstream.project);
    answer.then(done, done);
    this.#asking.set(upstream.project, answer);
    return answer;
  }
}
