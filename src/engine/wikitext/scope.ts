/**
 * What the steps of one `parseWikitext` call read: the article's site, language, wiki and title,
 * and its work budget. Read-only: what a step finds (an infobox, a table, a footnote, the
 * description) is handed back to its caller as a `Found` (./found.ts) or written to the walk's
 * collector (../collector.ts), never kept here.
 */
import type { WorkBudget } from '../budget.js';
import type { Site } from '../site.js';
import type { WikiProfile } from '../wiki/profile.js';

export interface Scope {
  readonly site: Site | undefined;
  readonly language: string | undefined;
  /** The page's wiki: its namespaces, image options, template knowledge (../wiki/profile.ts). */
  readonly profile: WikiProfile;
  /** The page title, the default name of an infobox. */
  readonly title: string | undefined;
  /** The page's work budget (../budget.ts), charged where work multiplies. */
  readonly budget?: WorkBudget;
  /** Normalized boilerplate section titles of the article's language. */
  readonly boilerplate: ReadonlySet<string>;
}
