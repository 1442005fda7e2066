/**
 * What a front door (Parsoid/skin HTML in ./sections.ts, wikitext in ./wikitext/) extracts from one
 * article: the intermediate form both hand to the one back half (./article.ts), which assembles the
 * Article. Everything here is already in output shape except the lead, which is kept apart so the
 * abstract needs no second walk.
 */
import type { Part, Reference, Table } from '../schema/article.js';

/**
 * One block of the lead, as the abstract needs it: a paragraph already rendered for the abstract
 * (pronunciation guides replaced by the CUT mark of ./cut.ts), or a list part.
 */
export type LeadLine = { text: string } | { list: Part };

export interface Extracted {
  /** The section tree; the first section is the lead, named "abstract". */
  sections: Part[];
  lead: LeadLine[];
  /** In document order. */
  infoboxes: Part[];
  tables: Table[];
  /** Every reference-list entry met, in document order (duplicates removed at assembly). */
  references: Reference[];
  /** The page's short description, when the body carries one. */
  description?: string;
}
