/**
 * The page's top-level tokens → the section tree. Text nodes are cut at line breaks so that the
 * page reads as lines, the unit of wikitext block syntax: a blank line ends a paragraph, a line
 * starting with `*#:;` is a list item, a heading opens a section by level (the lead is the content
 * before the first heading, named "abstract"), a table is a table. Boilerplate sections
 * (grammar/sections.json) are dropped with their subsections, as in the HTML path.
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes, ExtToken, FileToken, HeadingToken, HtmlToken, TableToken, TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { TAGS, templateKind } from './grammar.js';
import { MATH, headingKey } from '../grammar.js';
import { SectionTree, addPart as add } from '../section-tree.js';
import { imagePart } from './image.js';
import { render, texOf } from './render.js';
import type { Piece } from './render.js';
import type { Scope } from './scope.js';
import { pushAll } from '../arrays.js';
import { isInfoboxTable, isLayoutHolder, rowsOf, tableBlock } from './table.js';
import { tableInfoboxPart } from './infobox.js';

/** Deeper list markers are read as this depth: keeps the output tree shallow on garbage input. */
const MAX_LIST_DEPTH = 20;

interface Line {
  pieces: Piece[];
  /** The list marker (`*`, `#:` …) when the line is a list item. */
  marker: string | undefined;
}

export type LeadBlock = { paragraph: Piece[] } | { list: Part };

const isBlank = (line: Line): boolean =>
  line.marker === undefined && line.pieces.every((p) => (typeof p === 'string' ? p.trim().length === 0 : p.type === 'comment'));

/** Tokens that MediaWiki renders as blocks (or not at all) when they stand alone on a line. */
const BLOCK_TOKENS = new Set(['template', 'file', 'magic-word', 'comment', 'category', 'double-underscore', 'ext']);

/**
 * A line holding only templates, files and the like (`[[File:…|thumb]]`, `{{blockquote|…}}`,
 * `{{Main|…}}`): their output is a block, so it ends the paragraph before it and starts no
 * paragraph with the text after it.
 */
const isStandalone = (line: Line): boolean =>
  line.marker === undefined &&
  line.pieces.some((p) => typeof p !== 'string' && p.type !== 'comment') &&
  line.pieces.every((p) =>
    typeof p === 'string' ? p.trim().length === 0 : BLOCK_TOKENS.has(p.type) && !(p.type === 'ext' && TAGS.ref.has((p as ExtToken).name.toLowerCase())),
  );


function isBlockPiece(p: Piece): boolean {
  if (typeof p === 'string') return false;
  if (isDisplayedMath(p)) return true;
  if (p.type === 'html') return TAGS.blockHtml.has((p as HtmlToken).name.toLowerCase());
  if (p.type !== 'template') return false;
  const kind = templateKind((p as TranscludeToken).name);
  return kind.kind === 'text' && kind.rule.block === true;
}

const isMath = (p: Piece): p is ExtToken => typeof p !== 'string' && p.type === 'ext' && TAGS.math.has((p as ExtToken).name.toLowerCase());

/** `<math display="block">` (grammar/math.json `displayBlock`, as the HTML door reads it): displayed wherever it is written, even inside a line. */
function isDisplayedMath(p: Piece): boolean {
  return isMath(p) && String(p.getAttr('display') ?? '').trim().toLowerCase() === MATH.displayBlock;
}

/**
 * A line that is one formula: `<math display="block">` alone, or a `<math>` alone on a line
 * indented with `:` (the usual way to display one), which is not a list item but a formula.
 */
function formulaOf(line: Line): ExtToken | undefined {
  if (line.marker !== undefined && !/^:+$/.test(line.marker)) return undefined;
  let math: ExtToken | undefined;
  for (const p of line.pieces) {
    if (typeof p === 'string' ? p.trim().length === 0 : p.type === 'comment') continue;
    if (math !== undefined || !isMath(p)) return undefined;
    math = p;
  }
  if (math === undefined) return undefined;
  return line.marker !== undefined || isDisplayedMath(math) ? math : undefined;
}

function formulaPart(math: ExtToken): Part | undefined {
  const tex = texOf(math);
  return tex.length > 0 ? { type: 'formula', value: tex } : undefined;
}

export class BlockWalker {
  readonly tree = new SectionTree();
  readonly lead: LeadBlock[] = [];
  private lines: Line[] = [];
  private line: Line = { pieces: [], marker: undefined };

  constructor(private readonly scope: Scope) {}

  walk(nodes: readonly AstNodes[]): void {
    for (const n of nodes) this.node(n);
    this.endLine();
    this.flush();
  }

  private node(n: AstNodes): void {
    switch (n.type) {
      case 'text': {
        const parts = n.data.split('\n');
        for (let i = 0; i < parts.length; i++) {
          if (i > 0) this.endLine();
          if (parts[i]!.length > 0) this.line.pieces.push(parts[i]!);
        }
        return;
      }
      case 'heading':
        this.endLine();
        this.flush();
        this.heading(n as HeadingToken);
        return;
      case 'table': {
        this.endLine();
        this.flush();
        const table = n as TableToken;
        if (isInfoboxTable(table)) {
          // Collected wherever it stands, as infobox templates are.
          const part = tableInfoboxPart(table, this.scope);
          if (part !== undefined) this.scope.infoboxes.push(part);
        } else if (isLayoutHolder(table)) this.lookThrough(table);
        else if (!this.tree.skipping) this.tree.block(tableBlock(table, this.scope, this.tree.path));
        return;
      }
      case 'hr':
        this.endLine();
        this.flush();
        return;
      case 'list':
        this.line.marker = (this.line.marker ?? '') + String(n).trim();
        return;
      case 'dd':
        // `;term : definition` on one line: the definition is an item of its own.
        if (this.line.marker !== undefined) {
          const marker = `${this.line.marker.slice(0, -1)}:`;
          this.endLine();
          this.line.marker = marker;
        } else this.line.pieces.push(' ');
        return;
      default:
        this.line.pieces.push(n);
    }
  }

  /** A layout table's cells are read as blocks of the section, one cell after the other. */
  private lookThrough(table: TableToken): void {
    const { rows, caption } = rowsOf(table);
    for (const td of caption === undefined ? rows.flat() : [caption, ...rows.flat()]) {
      for (const c of td.lastChild.childNodes) this.node(c);
      this.endLine();
      this.flush();
    }
  }

  private endLine(): void {
    this.lines.push(this.line);
    this.line = { pieces: [], marker: undefined };
  }

  private heading(h: HeadingToken): void {
    const name = render(this.scope, h.firstChild.childNodes, { abstract: true, collect: false }).value;
    this.tree.heading(h.level, name, this.scope.boilerplate.has(headingKey(name)));
  }

  /** Turns the pending lines into paragraph and list parts. */
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
    const pieces: Piece[] = [];
    for (const l of lines) {
      if (pieces.length > 0) pieces.push(' ');
      pushAll(pieces, l.pieces);
    }
    // A block quotation inside the lines is a paragraph of its own, as MediaWiki renders it.
    let start = 0;
    for (let i = 0; i < pieces.length; i++) {
      if (!isBlockPiece(pieces[i]!)) continue;
      this.paragraphOf(pieces.slice(start, i));
      const p = pieces[i]!;
      if (isMath(p)) this.formula(p);
      else if (typeof p !== 'string' && p.type === 'template') this.paragraphOf([p]);
      start = i + 1;
    }
    this.paragraphOf(start === 0 ? pieces : pieces.slice(start));
  }

  private paragraphOf(pieces: Piece[]): void {
    if (pieces.length === 0) return;
    // Infoboxes, citations and the description are collected even in dropped sections, as the
    // HTML path collects references from anywhere; only the parts are not placed.
    const r = render(this.scope, pieces);
    this.images(r.files);
    if (r.value.length === 0) return;
    const part: Part = { type: 'paragraph', value: r.value };
    if (r.links.length > 0) part.links = r.links;
    if (r.citations.length > 0) part.citations = r.citations;
    if (this.tree.inLead) this.lead.push({ paragraph: pieces });
    this.tree.block(part);
  }

  private formula(math: ExtToken): void {
    const part = formulaPart(math);
    if (part !== undefined && !this.tree.skipping) this.tree.block(part);
  }

  private images(files: readonly FileToken[]): void {
    for (const f of files) {
      const part = imagePart(f, this.scope);
      if (part !== undefined) this.tree.block(part);
    }
  }

  /** List lines → one list; a deeper marker nests a list in the previous item. */
  private list(lines: readonly Line[]): void {
    const root: Part = { type: 'list' };
    const stack: { depth: number; list: Part }[] = [{ depth: 1, list: root }];
    for (const line of lines) {
      const depth = Math.min(MAX_LIST_DEPTH, Math.max(1, line.marker!.length));
      while (stack.length > 1 && stack[stack.length - 1]!.depth > depth) stack.pop();
      while (stack[stack.length - 1]!.depth < depth) {
        const top = stack[stack.length - 1]!;
        const items = top.list.has_parts ?? [];
        let last = items[items.length - 1];
        if (last === undefined) {
          last = { type: 'list_item' };
          add(top.list, last);
        }
        const nested: Part = { type: 'list' };
        add(last, nested);
        stack.push({ depth: top.depth + 1, list: nested });
      }
      const r = render(this.scope, line.pieces);
      this.images(r.files);
      if (r.value.length === 0) continue;
      const item: Part = { type: 'list_item', value: r.value };
      if (r.links.length > 0) item.links = r.links;
      if (r.citations.length > 0) item.citations = r.citations;
      add(stack[stack.length - 1]!.list, item);
    }
    pruneEmpty(root);
    if (root.has_parts === undefined || root.has_parts.length === 0) return;
    if (this.tree.inLead) this.lead.push({ list: root });
    this.tree.block(root);
  }
}

/** Items created only to hold a nested list that stayed empty are removed. */
function pruneEmpty(list: Part): void {
  if (list.has_parts === undefined) return;
  list.has_parts = list.has_parts.filter((item) => {
    if (item.has_parts !== undefined) {
      for (const l of item.has_parts) pruneEmpty(l);
      item.has_parts = item.has_parts.filter((l) => (l.has_parts?.length ?? 0) > 0);
      if (item.has_parts.length === 0) delete item.has_parts;
    }
    return item.value !== undefined || item.has_parts !== undefined;
  });
  if (list.has_parts.length === 0) delete list.has_parts;
}

