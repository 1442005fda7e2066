/**
 * What /v2/projects and /v2/languages list: every open, public Wikimedia wiki and its language
 * (the bundled table, metadata.ts), the wikis configured with `--upstream` (their names and
 * languages as the wikis report them, upstream/configured-wikis.ts), and whatever else the article store
 * holds (an imported archive of a code no table places, an article's own language).
 *
 * Reading the store is a scan of the whole articles table (every row's project and language): 30 ms
 * on the embedded database with 10,000 articles, on the event loop (bench/catalog.ts). The lists
 * change only when an article is written, so they are read once and kept, like a title's rows
 * in lookup-cache.ts: a write in this process (or another's, pushed over the bus) drops them at
 * once (`invalidate`, from the store's write listeners), and a write whose push was lost, or by
 * a process without the bus, is seen within `maxAgeMs`.
 */
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Db } from '../../storage/db.js';
import { bundledLanguages, bundledProjects, language, languageOfProject, project } from './metadata.js';
import type { Language, Project } from './models.js';

const PairRows = z.array(z.object({ project: z.string(), language: z.string().nullable() }));

export interface CatalogLists {
  /** Every stored project, by code; a code no grammar places is listed by its identifier and stored language. */
  projects: Project[];
  /** Every language of a stored article or of a stored project's wiki, by code. */
  languages: Language[];
}

/**
 * Both lists from one scan. Sorted here, by UTF-16 code unit, not by the database: the server's
 * collation may order `zh_yuewiki` and `zhwiki` otherwise than PGlite's, and a list must not
 * depend on which database answers.
 */
export async function readCatalog(db: Db): Promise<CatalogLists> {
  const rows = PairRows.parse(await db.query('SELECT DISTINCT project, language FROM articles'));
  // A project's stored language: the least of its articles' (as min() would; NULLs ignored).
  const projectLanguage = new Map<string, string | null>();
  const codes = new Set<string>();
  for (const row of rows) {
    const before = projectLanguage.get(row.project) ?? null;
    projectLanguage.set(row.project, before === null || (row.language !== null && row.language < before) ? row.language : before);
    if (row.language !== null) codes.add(row.language);
    // The wiki's language when the articles do not say theirs: a code a family's pattern places
    // (companywiki, a configured wiki of its own) would otherwise add a made-up one ("company").
    const own = row.language === null ? languageOfProject(row.project) : undefined;
    if (own !== undefined) codes.add(own);
  }
  const projects = [...projectLanguage.keys()].sort().map((code) => {
    const stored = projectLanguage.get(code) ?? null;
    return project(code, stored) ?? { identifier: code, ...(stored === null ? {} : { in_language: language(stored) }) };
  });
  return { projects, languages: [...codes].sort().map(language) };
}

export interface CatalogOptions {
  db: Db;
  clock: Clock;
  /** How long the lists read are trusted without a write being heard; 0 reads every time. */
  maxAgeMs: number;
  /** What is listed whatever the store holds; default every open, public Wikimedia wiki and its language. */
  bundled?: CatalogLists;
  /** The wikis configured with `--upstream` of no Wikimedia wiki, as they describe themselves (asked at each listing; configured-wikis.ts keeps the answers). */
  configured?: () => Promise<Project[]>;
}

/** The bundled table, once: every open, public Wikimedia wiki and its language. */
let bundled: CatalogLists | undefined;
function bundledLists(): CatalogLists {
  bundled ??= { projects: [...bundledProjects()], languages: [...bundledLanguages()] };
  return bundled;
}

/**
 * The union of several lists, each item once by identifier (the first list's wins: the bundled
 * facts over what a configured wiki or the store says of the same code), sorted by code unit.
 */
export function unionByIdentifier<T extends { identifier: string }>(...lists: readonly (readonly T[])[]): T[] {
  const seen = new Map<string, T>();
  for (const list of lists) for (const item of list) if (!seen.has(item.identifier)) seen.set(item.identifier, item);
  return [...seen.values()].sort((a, b) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0));
}

export class Catalog {
  readonly #options: CatalogOptions;
  #kept: { lists: CatalogLists; readAt: number } | undefined;
  #reading: { generation: number; lists: Promise<CatalogLists> } | undefined;
  /** Bumped by every write heard: a read begun before one may have missed it, so is not kept. */
  #generation = 0;

  constructor(options: CatalogOptions) {
    this.#options = options;
  }

  async projects(): Promise<Project[]> {
    const [stored, configured] = await Promise.all([this.#lists(), this.#configured()]);
    return unionByIdentifier(this.#bundled().projects, configured, stored.projects);
  }

  /** The projects the store holds articles of (not the bundled or configured ones): what `--follow` refreshes. */
  async storedProjects(): Promise<Project[]> {
    return (await this.#lists()).projects;
  }

  async languages(): Promise<Language[]> {
    const [stored, configured] = await Promise.all([this.#lists(), this.#configured()]);
    const ofConfigured = configured.flatMap((p) => (p.in_language === undefined ? [] : [p.in_language]));
    return unionByIdentifier(this.#bundled().languages, ofConfigured, stored.languages);
  }

  #bundled(): CatalogLists {
    return this.#options.bundled ?? bundledLists();
  }

  #configured(): Promise<Project[]> {
    return this.#options.configured?.() ?? Promise.resolve([]);
  }

  /** An article was written: the next request reads the lists again. */
  invalidate(): void {
    this.#generation += 1;
    this.#kept = undefined;
  }

  #lists(): Promise<CatalogLists> {
    const now = this.#options.clock.now().getTime();
    const kept = this.#kept;
    // A clock that went back makes the age unknown: read again.
    if (kept !== undefined && now >= kept.readAt && now - kept.readAt < this.#options.maxAgeMs) return Promise.resolve(kept.lists);
    const generation = this.#generation;
    // Concurrent requests share one scan, unless a write came after it began.
    if (this.#reading?.generation === generation) return this.#reading.lists;
    const lists = readCatalog(this.#options.db).then((read) => {
      if (generation === this.#generation && this.#options.maxAgeMs > 0) this.#kept = { lists: read, readAt: now };
      return read;
    });
    const reading = { generation, lists };
    this.#reading = reading;
    const done = (): void => {
      if (this.#reading === reading) this.#reading = undefined;
    };
    lists.then(done, done);
    return lists;
  }
}
