/**
 * What the steps of one `parse` call share: read-only facts about the article (its site, the
 * boilerplate section titles of its language) and the optional source marker. What a walk finds
 * (infoboxes, tables, references, the description, the lead) is not kept here: each rule hands it
 * to the walk's collector (collector.ts), which becomes the `Extracted`.
 */
import type { WorkBudget } from './budget.js';
import { boilerplateTitles } from './grammar.js';
import type { Site } from './site.js';
import type { SourceMarker } from './source-positions.js';

export interface Context {
  readonly site: Site | undefined;
  readonly boilerplate: ReadonlySet<string>;
  /** Present when the caller asked for source hints (source-positions.ts); undefined costs nothing. */
  readonly mark?: SourceMarker;
  /** The page's work budget (budget.ts), charged where work multiplies; the one thing rules add to. */
  readonly budget?: WorkBudget;
}

/**
 * Beyond this many nested elements the tree is flattened to text: no real article comes near it,
 * and it keeps the recursive steps far from the stack limit on adversarial input.
 */
export const MAX_DEPTH = 160;

export function createContext(site: Site | undefined, language: string | undefined, mark?: SourceMarker, budget?: WorkBudget): Context {
  const boilerplate = boilerplateTitles(language);
  const ctx: { site: Site | undefined; boilerplate: ReadonlySet<string>; mark?: SourceMarker; budget?: WorkBudget } = { site, boilerplate };
  if (mark !== undefined) ctx.mark = mark;
  if (budget !== undefined) ctx.budget = budget;
  return ctx;
}
