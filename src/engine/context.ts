/** What the steps of one `parse` call share: the article's site and language-specific rules. */
import type { Part, Reference, Table } from '../schema/article.js';
import type { AnyNode, Element } from './dom.js';
import { boilerplateTitles } from './grammar.js';
import type { Site } from './site.js';
import type { SourceMarker } from './source-positions.js';

export interface Context {
  readonly site: Site | undefined;
  readonly boilerplate: ReadonlySet<string>;
  /** Set by the block walker when it meets the short-description element (which is noise). */
  description: string | undefined;
  /** The lead's paragraphs (as nodes) and lists (as parts), kept so the abstract needs no second walk. */
  readonly lead: LeadBlock[];
  /** Structured objects collected during the walk, in document order. */
  readonly infoboxes: Part[];
  readonly tables: Table[];
  readonly references: Reference[];
  /** Set when the caller asked for source hints (source-positions.ts); undefined costs nothing. */
  mark?: SourceMarker;
}

/**
 * Beyond this many nested elements the tree is flattened to text: no real article comes near it,
 * and it keeps the recursive steps far from the stack limit on adversarial input.
 */
export const MAX_DEPTH = 160;

export type LeadBlock = { paragraph: Element | AnyNode[] } | { list: Part };

export function createContext(site: Site | undefined, language: string | undefined): Context {
  return { site, boilerplate: boilerplateTitles(language), description: undefined, lead: [], infoboxes: [], tables: [], references: [] };
}
