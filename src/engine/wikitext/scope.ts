/** What the steps of one `parseWikitext` call share: the article's site and what has been collected. */
import type { Citation, Part, Table } from '../../schema/article.js';
import type { WorkBudget } from '../budget.js';
import type { Site } from '../site.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { ExtToken, TranscludeToken } from 'wikiparser-node/dist/internal.js';

export interface Scope {
  readonly site: Site | undefined;
  readonly language: string | undefined;
  /** The page's wiki: its namespaces, image options, template knowledge (../wiki/profile.ts). */
  readonly profile: WikiProfile;
  /** The page title, the default name of an infobox. */
  readonly title: string | undefined;
  /** Where the renderer's citations go (references.ts ReferenceBook, resolved after the page is read). */
  readonly refs: Citations;
  /** The page's work budget (../budget.ts), charged where work multiplies. */
  readonly budget?: WorkBudget;
  /** Normalized boilerplate section titles of the article's language. */
  readonly boilerplate: ReadonlySet<string>;
  /** From {{short description|…}}; the first one wins. */
  description: string | undefined;
  readonly infoboxes: Part[];
  readonly tables: Table[];
  /** Infoboxes rendered as sections of the infobox they are embedded in; not infoboxes of their own. */
  readonly embedded: WeakSet<TranscludeToken>;
  /** Called by the renderer when it meets an infobox template (which is never text). */
  infoboxFound(t: TranscludeToken): void;
}

/**
 * What the renderer asks of the page's references: a citation for a `<ref>`, a short footnote, a
 * note template. Declared here, implemented by references.ts, so that neither the scope nor the
 * renderer imports the reference book (which renders with the renderer).
 */
export interface Citations {
  cite(t: ExtToken): Citation | undefined;
  citeShort(t: TranscludeToken): Citation | undefined;
  citeNote(t: TranscludeToken, defaultGroup: string, bodyKey?: string): Citation | undefined;
}
