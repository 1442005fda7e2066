/**
 * Runs the wikitext preset (./preset.ts) over the page's top-level nodes in document order. Text
 * is cut at line breaks so that the page reads as lines, the unit of wikitext block syntax; the
 * rules that `break` (a heading, a table, a box alone on its line) first turn the pending lines
 * into blocks: a blank line ends a paragraph, a line starting with `*#:;` is a list item
 * (rules/list.ts), a line that is one formula is a formula, a line holding only templates and files
 * is a block of its own (rules/paragraph.ts). What renderings find (footnote uses, infoboxes, the
 * description) is committed in document order (`commit`); footnote uses are resolved after the
 * walk (references.ts), the lead's text is rendered for the abstract as each lead block is placed.
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes, ExtToken, FileToken } from './syntax/types.js';
import type { Collector } from '../collector.js';
import { SectionTree } from '../section-tree.js';
import type { FootnoteUse, Found } from './found.js';
import { imagePart } from '../figure/wikitext.js';
import { infoboxPart } from '../infobox/wikitext.js';
import { argText, render } from './render.js';
import type { Piece } from './render.js';
import { formulaOf, formulaPart, isBlank, isStandalone, paragraphBlocks } from './rules/paragraph.js';
import type { Line } from './rules/paragraph.js';
import { listOf } from './rules/list.js';
import type { Scope } from './scope.js';
import type { WikitextRule, WikitextWalk } from './types.js';

export class WikitextWalker implements WikitextWalk {
  readonly tree = new SectionTree();
  /** Footnote uses in document order, for the reference pass after the walk. */
  readonly uses: FootnoteUse[] = [];
  private lines: Line[] = [];
  private line: Line = { pieces: [], marker: undefined };
  /** The last of the following nodes a rule has read already (rules/table-template.ts): not walked again. */
  private skipping: AstNodes | undefined;

  constructor(
    readonly ctx: Scope,
    private readonly out: Collector,
    private readonly rules: readonly WikitextRule[],
  ) {}

  /** Walks the page's top-level nodes, then ends their lines. */
  walk(nodes: readonly AstNodes[]): void {
    this.nodes(nodes);
  }

  nodes(nodes: readonly AstNodes[]): void {
    for (const n of nodes) {
      if (this.skipping !== undefined) {
        if (n === this.skipping) this.skipping = undefined;
        continue;
      }
      this.node(n);
    }
    this.endLine();
    this.flush();
  }

  skipThrough(n: AstNodes): void {
    this.skipping = n;
  }

  node(n: AstNodes): void {
    for (const rule of this.rules) {
      if (!rule.test(n, this)) continue;
      if (rule.breaks) {
        this.endLine();
        this.flush();
      }
      rule.run(n, this, this.out);
      return;
    }
  }

  piece(p: Piece): void {
    this.line.pieces.push(p);
  }

  get lineMarker(): string | undefined {
    return this.line.marker;
  }

  marker(m: string): void {
    this.line.marker = (this.line.marker ?? '') + m;
  }

  endLine(): void {
    this.lines.push(this.line);
    this.line = { pieces: [], marker: undefined };
  }

  block(part: Part): void {
    this.tree.block(part);
  }

  commit(found: readonly Found[]): void {
    for (const f of found) {
      switch (f.kind) {
        case 'infobox': {
          // What the box's own renderings find (its footnotes, a box inside another template of
          // it) comes first, as it does on the page.
          const inner: Found[] = [];
          const part = infoboxPart(f.token, this.ctx, 0, inner);
          this.commit(inner);
          this.out.infobox(part);
          break;
        }
        case 'description':
          this.out.description(argText(this.ctx, f.token, '1', { textOnly: true }));
          break;
        default:
          this.uses.push(f);
      }
    }
  }

  /** Turns the pending lines into paragraph, list and formula parts. */
  private flush(): void {
    const lines = this.lines;
    this.lines = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (isBlank(line)) {
        i++;
        continue;
      }
      const start = i;
      const math = formulaOf(line);
      if (math !== undefined) {
        this.formula(math);
        i++;
        continue;
      }
      if (isStandalone(line)) {
        this.paragraph([line]);
        i++;
        continue;
      }
      const listy = line.marker !== undefined;
      while (
        i < lines.length &&
        !isBlank(lines[i]!) &&
        !isStandalone(lines[i]!) &&
        formulaOf(lines[i]!) === undefined &&
        (lines[i]!.marker !== undefined) === listy
      )
        i++;
      if (listy) this.list(lines.slice(start, i));
      else this.paragraph(lines.slice(start, i));
    }
  }

  private paragraph(lines: readonly Line[]): void {
    for (const block of paragraphBlocks(lines)) {
      if (Array.isArray(block)) this.paragraphOf(block);
      else this.formula(block);
    }
  }

  private paragraphOf(pieces: Piece[]): void {
    if (pieces.length === 0) return;
    // Infoboxes, citations and the description are collected even in dropped sections, as the
    // HTML path collects references from anywhere; only the parts are not placed.
    const r = render(this.ctx, pieces);
    this.commit(r.found);
    this.images(r.files);
    if (r.value.length === 0) return;
    const part: Part = { type: 'paragraph', value: r.value };
    if (r.links.length > 0) part.links = r.links;
    if (r.citations.length > 0) part.citations = r.citations;
    // The abstract's reading of a lead paragraph: pronunciation guides cut (../cut.ts); the
    // same text as the paragraph's when there was nothing to cut (Rendered.abstractDiffers).
    if (this.tree.inLead) this.out.leadText(r.abstractDiffers ? render(this.ctx, pieces, { abstract: true, textOnly: true }).value : r.value);
    this.tree.block(part);
  }

  private formula(math: ExtToken): void {
    const part = formulaPart(math);
    if (part !== undefined) this.tree.block(part);
  }

  private images(files: readonly FileToken[]): void {
    for (const f of files) {
      const found: Found[] = [];
      const part = imagePart(f, this.ctx, found);
      this.commit(found);
      if (part !== undefined) this.tree.block(part);
    }
  }

  private list(lines: readonly Line[]): void {
    const root = listOf(lines, (pieces) => {
      const r = render(this.ctx, pieces);
      this.commit(r.found);
      this.images(r.files);
      return r;
    });
    if (root === undefined) return;
    if (this.tree.inLead) this.out.leadList(root);
    this.tree.block(root);
  }
}
