/**
 * Turns the article body into the section tree. One walk over the content in document order
 * emits blocks and headings; headings open sections by level (h2–h6), which reproduces Parsoid's
 * `<section data-mw-section-id>` nesting and gives the same tree for skin-rendered pages whose
 * headings are flat siblings. Content before the first heading is the lead, named "abstract".
 */
import type { Part } from '../schema/article.js';
import { SectionTree } from './section-tree.js';
import type { AnyNode, Element } from './dom.js';
import { firstElementChild, hasClass, isElement, rawText } from './dom.js';
import type { Context } from './context.js';
import { MAX_DEPTH } from './context.js';
import { REFERENCE_LIST_WRAPPERS, headingKey } from './grammar.js';
import { inline } from './inline.js';
import { hasClassIn, isInfobox, isNoise, isPronunciation } from './rules.js';
import type { Extracted, LeadLine } from './extracted.js';
import { paragraphPart } from './blocks/paragraph.js';
import { isList, listPart } from './blocks/list.js';
import { figurePart, galleryParts, isFigure, isGallery } from './blocks/figure.js';
import { infoboxPart } from './blocks/infobox.js';
import { isLayoutTable, readTable, tableIdentifier, tablePart } from './blocks/table.js';
import type { Table } from '../schema/article.js';
import { readReferenceList, referenceListsIn } from './references.js';
import { runElement } from './source-positions.js';

export { LEAD_NAME } from './section-tree.js';

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** Elements that start a new block; anything else at block level is inline content of an implicit paragraph. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'body', 'html', 'caption',
  'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'summary',
]);

class Walker {
  readonly tree = new SectionTree();
  /** Inline nodes waiting to become one implicit paragraph. */
  private pending: AnyNode[] = [];

  constructor(readonly ctx: Context) {}

  container(el: Element, depth: number): void {
    for (const child of el.children) this.node(child, depth + 1);
    this.flush(depth);
  }

  node(node: AnyNode, depth: number): void {
    if (!isElement(node)) {
      if (node.type === 'text') this.pending.push(node);
      return;
    }
    const el = node;
    if (this.tree.skipping && !isHeadingBlock(el)) {
      // Inside a boilerplate section of a flat (rendered) page: only its reference lists matter.
      this.references(el);
      return;
    }
    if (isNoise(el)) {
      if (this.ctx.description === undefined && hasClass(el, 'shortdescription')) {
        this.ctx.description = rawText(el).replace(/\s+/g, ' ').trim() || undefined;
      }
      if (mayHoldReferences(el)) this.references(el);
      return;
    }
    const name = el.name;
    if (!BLOCKS.has(name) && !isFigure(el)) {
      this.pending.push(el);
      return;
    }
    this.flush(depth);
    // Past the depth cap a block is read as one paragraph of its text (see MAX_DEPTH).
    if (depth > MAX_DEPTH) return this.paragraph(el, depth);
    const level = HEADINGS[name];
    if (level !== undefined) return this.heading(el, level, depth);
    if (name === 'section') return this.section(el, depth);
    if (name === 'p') return this.paragraph(el, depth);
    if (isGallery(el)) {
      for (const part of galleryParts(el, this.ctx, depth)) {
        this.ctx.mark?.(part, el);
        this.tree.block(part);
      }
      return;
    }
    if (isList(el)) {
      const part = listPart(el, this.ctx, depth);
      if (part === undefined) return;
      this.ctx.mark?.(part, el);
      if (this.tree.inLead) this.ctx.lead.push({ list: part });
      this.tree.block(part);
      return;
    }
    if (isFigure(el)) {
      const part = figurePart(el, this.ctx, depth);
      if (part === undefined) return;
      this.ctx.mark?.(part, el);
      this.tree.block(part);
      return;
    }
    if (isInfobox(el)) {
      const part = infoboxPart(el, this.ctx, depth);
      if (part === undefined) return;
      this.ctx.mark?.(part, el);
      this.ctx.infoboxes.push(part);
      return;
    }
    if (name === 'table' && !isLayoutTable(el)) return this.table(el, depth);
    this.container(el, depth);
  }

  /** A content table and the tables nested in it: entries in Article.tables, one part here. */
  private table(el: Element, depth: number): void {
    const entries: Table[] = [];
    const ids = new Map<Element, string>();
    const path = this.tree.path;
    const idOf = (t: Element): string => {
      let id = ids.get(t);
      if (id === undefined) ids.set(t, (id = tableIdentifier(path, this.ctx.tables)));
      return id;
    };
    const queue = [{ el, depth }];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { table, nested } = readTable(next.el, idOf, this.ctx, next.depth);
      this.ctx.tables.push(table);
      entries.push(table);
      // table > tr > td: each nesting level is at least three elements deeper.
      for (const inner of nested) queue.push({ el: inner, depth: next.depth + 3 });
    }
    const part = tablePart(el, entries, this.ctx, depth);
    this.ctx.mark?.(part, el);
    this.tree.block(part);
  }

  private references(el: Element): void {
    for (const list of referenceListsIn(el)) this.ctx.references.push(...readReferenceList(list, this.ctx));
  }

  private heading(el: Element, level: number, depth: number): void {
    const name = inline(el, this.ctx, {}, depth).value;
    const section = this.tree.heading(level, name, this.ctx.boilerplate.has(headingKey(name)));
    if (section !== undefined) this.ctx.mark?.(section, el);
  }

  /** Parsoid sections: a boilerplate one is skipped whole, without walking its subtree. */
  private section(el: Element, depth: number): void {
    const first = firstElementChild(el);
    const level = first === undefined ? undefined : HEADINGS[first.name];
    if (first !== undefined && level !== undefined) {
      const name = inline(first, this.ctx, {}, depth).value;
      if (this.ctx.boilerplate.has(headingKey(name))) {
        this.references(el);
        return;
      }
    }
    this.container(el, depth);
  }

  private paragraph(el: Element, depth: number): void {
    const part = paragraphPart(el, this.ctx, depth);
    if (part === undefined) return;
    this.ctx.mark?.(part, el);
    if (this.tree.inLead) this.ctx.lead.push({ paragraph: el });
    this.tree.block(part);
  }

  flush(depth: number): void {
    if (this.pending.length === 0) return;
    const nodes = this.pending;
    this.pending = [];
    const part = paragraphPart(nodes, this.ctx, depth);
    if (part === undefined) return;
    const source = this.ctx.mark === undefined ? undefined : runElement(nodes);
    if (source !== undefined) this.ctx.mark?.(part, source);
    if (this.tree.inLead) this.ctx.lead.push({ paragraph: nodes });
    this.tree.block(part);
  }
}

/** Headings, their rendered-page wrappers and Parsoid sections can end a skipped boilerplate section. */
function isHeadingBlock(el: Element): boolean {
  return HEADINGS[el.name] !== undefined || el.name === 'section' || (el.name === 'div' && hasClass(el, 'mw-heading'));
}

/** Noise that can contain a reference list: the lists themselves and their wrappers. */
function mayHoldReferences(el: Element): boolean {
  return el.name === 'ol' || hasClassIn(el, REFERENCE_LIST_WRAPPERS);
}

/**
 * The HTML front door's output: the section tree and what the walk collected. Lead paragraphs are
 * rendered for the abstract here, where their nodes are at hand; a paragraph the wiki marks as
 * unsuitable for excerpts (e.g. a taxon subtitle) is left out of it.
 */
export function extract(content: Element, ctx: Context): Extracted {
  const walker = new Walker(ctx);
  walker.container(content, 0);
  const lead: LeadLine[] = [];
  for (const block of ctx.lead) {
    if ('list' in block) lead.push(block);
    else if (Array.isArray(block.paragraph) || !isPronunciation(block.paragraph)) {
      lead.push({ text: inline(block.paragraph, ctx, { abstract: true }).value });
    }
  }
  const out: Extracted = { sections: walker.tree.sections, lead, infoboxes: ctx.infoboxes, tables: ctx.tables, references: ctx.references };
  if (ctx.description !== undefined) out.description = ctx.description;
  return out;
}
