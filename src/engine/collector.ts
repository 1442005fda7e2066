/**
 * What a walk collects besides the section tree, as explicit outputs of the rules that find them:
 * infoboxes, tables, reference-list entries, the short description and the lead. It becomes the
 * front door's `Extracted` (./extracted.ts) once the walk is done. Both doors write through it:
 * the HTML walk's rules (walk/), and the wikitext walk's rules and commits (wikitext/walker.ts),
 * which hand over the lead already rendered (`leadText`) and the references after their pass.
 */
import type { Part, Reference, Table } from '../schema/article.js';
import type { AnyNode, Element } from './dom.js';
import type { Context } from './context.js';
import type { Extracted, LeadLine } from './extracted.js';
import { inline } from './inline.js';
import { isPronunciation } from './rules.js';

/** How many paragraphs below the lead are kept as candidates for a missing lead. */
const BODY_PARAGRAPHS = 4;
const WORD = /[\p{L}\p{N}]/u;

const hasText = (line: LeadLine): boolean => ('list' in line ? (line.list.has_parts?.length ?? 0) > 0 : line.text.length > 0);

/**
 * A lead block as the walk meets it: a paragraph's nodes (rendered at the end), a paragraph
 * already rendered for the abstract (the wikitext door's), or a list part.
 */
type LeadBlock = { paragraph: Element | AnyNode[] } | { text: string } | { list: Part };

export class Collector {
  readonly infoboxes: Part[] = [];
  /** Also read by the table rule: identifiers are unique among the tables collected so far. */
  readonly tables: Table[] = [];
  readonly references: Reference[] = [];
  private shortDescription: string | undefined;
  private readonly lead: LeadBlock[] = [];
  /** The first paragraphs below the lead: the abstract of a page whose lead has no text. */
  private readonly bodyParagraphs: (Element | AnyNode[])[] = [];

  infobox(part: Part): void {
    this.infoboxes.push(part);
  }

  table(table: Table): void {
    this.tables.push(table);
  }

  referenceEntries(entries: readonly Reference[]): void {
    for (const entry of entries) this.references.push(entry);
  }

  /** The first short description with text wins; later ones (a second template) are ignored. */
  description(text: string): void {
    if (this.shortDescription === undefined && text.length > 0) this.shortDescription = text;
  }

  leadParagraph(nodes: Element | AnyNode[]): void {
    this.lead.push({ paragraph: nodes });
  }

  /** A lead paragraph already rendered for the abstract (pronunciation guides cut, ./cut.ts). */
  leadText(text: string): void {
    this.lead.push({ text });
  }

  leadList(part: Part): void {
    this.lead.push({ list: part });
  }

  /** Only the first few are kept: the first with words among them stands in for a missing lead. */
  bodyParagraph(nodes: Element | AnyNode[]): void {
    if (this.bodyParagraphs.length < BODY_PARAGRAPHS) this.bodyParagraphs.push(nodes);
  }

  /**
   * The front door's output. Lead paragraphs are rendered for the abstract here, where their nodes
   * are at hand; a paragraph the wiki marks as unsuitable for excerpts (e.g. a taxon subtitle) is
   * left out of it.
   */
  extracted(sections: Part[], ctx: Context): Extracted {
    const lead: LeadLine[] = [];
    for (const block of this.lead) {
      if (!('paragraph' in block)) lead.push(block);
      else if (Array.isArray(block.paragraph) || !isPronunciation(block.paragraph)) {
        lead.push({ text: inline(block.paragraph, ctx, { abstract: true }).value });
      }
    }
    // A page with no text before its first heading (a template's documentation page, a list that
    // opens with a table) is summed up by the first paragraph with words a reader meets below it.
    if (!lead.some(hasText)) {
      for (const nodes of this.bodyParagraphs) {
        const text = inline(nodes, ctx, { abstract: true }).value;
        if (!WORD.test(text)) continue;
        lead.push({ text });
        break;
      }
    }
    const out: Extracted = { sections, lead, infoboxes: this.infoboxes, tables: this.tables, references: this.references };
    if (this.shortDescription !== undefined) out.description = this.shortDescription;
    return out;
  }
}
