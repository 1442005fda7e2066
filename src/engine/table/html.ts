/**
 * Content tables of the HTML door → `Article.tables` entries (a rectangular grid) plus a `table`
 * part at the table's place in its section: the rows and cells of the DOM read into
 * `SourceCell`s, laid out and scored by ./build.ts. See docs/tables.md for the span rule and the
 * confidence formula.
 */
import type { Part, Table } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { attr, childNodes, findAll, findFirst, isElement, someToken, tagName } from '../dom.js';
import type { Context } from '../context.js';
import { MAX_DEPTH } from '../context.js';
import { TABLES } from '../grammar.js';
import { inline } from '../inline.js';
import { isInfobox, isNoise } from '../rules.js';
import { MAX_COLSPAN, MAX_ROWSPAN, gridConfidence, layOut, tableEntry } from './build.js';
import type { Grid, SourceCell } from './build.js';

const hasDataClass = (t: string): boolean => TABLES.dataClasses.has(t);
const hasLayoutClass = (t: string): boolean => TABLES.layoutClasses.has(t);

export function isLayoutTable(table: Element): boolean {
  const role = attr(table, 'role');
  if (role !== undefined && TABLES.layoutRoles.has(role)) return true;
  if (someToken(attr(table, 'class'), hasLayoutClass)) return true;
  // A wrapper that only places boxes (several infoboxes side by side, a navbox beside text) is
  // layout whatever its class; a data table never holds one in its own cells.
  if (someToken(attr(table, 'class'), hasDataClass)) return false;
  return ownCells(table).some((cell) => findFirst(cell, (e) => someToken(attr(e, 'class'), isLayoutHolder)) !== undefined);
}

const isLayoutHolder = (t: string): boolean => TABLES.layoutHolders.has(t);
const isFooterClass = (t: string): boolean => TABLES.footerClasses.has(t);

function ownCells(table: Element): Element[] {
  const cells: Element[] = [];
  for (const { tr } of ownRows(table)) for (const c of childNodes(tr)) if (isElement(c) && (tagName(c) === 'td' || tagName(c) === 'th')) cells.push(c);
  return cells;
}

interface OwnRow {
  tr: Element;
  /** thead rows are headers; tfoot and footer-class rows (grammar/tables.json) are footers. */
  kind: 'head' | 'body' | 'foot';
}

/**
 * The rows of this table only: direct, or in thead/tbody/tfoot; never rows of nested tables.
 * <tfoot> rows are moved last, where a browser draws them (HTML §4.9.7).
 */
function ownRows(table: Element): OwnRow[] {
  const rows: OwnRow[] = [];
  const feet: OwnRow[] = [];
  const add = (tr: Element, section: string | undefined): void => {
    if (section === 'tfoot') feet.push({ tr, kind: 'foot' });
    else rows.push({ tr, kind: section === 'thead' ? 'head' : someToken(attr(tr, 'class'), isFooterClass) ? 'foot' : 'body' });
  };
  for (const child of childNodes(table)) {
    if (!isElement(child)) continue;
    if (tagName(child) === 'tr') add(child, undefined);
    else if (tagName(child) === 'thead' || tagName(child) === 'tbody' || tagName(child) === 'tfoot') {
      for (const tr of childNodes(child)) if (isElement(tr) && tagName(tr) === 'tr') add(tr, tagName(child));
    }
  }
  return [...rows, ...feet];
}

function span(value: string | undefined, max: number): number {
  if (value === undefined) return 1;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, max);
}

function readCell(cell: Element, ctx: Context, depth: number, skipTables: boolean, idOf: (table: Element) => string): SourceCell {
  const { value, links, citations } = inline(cell, ctx, { skipTables, markSuperscripts: true }, depth);
  const rich = findFirst(cell, (e) => tagName(e) === 'ul' || tagName(e) === 'ol' || tagName(e) === 'img' || tagName(e) === 'table') !== undefined;
  const out: SourceCell = {
    value,
    header: tagName(cell) === 'th',
    rich,
    colspan: span(attr(cell, 'colspan'), MAX_COLSPAN),
    rowspan: span(attr(cell, 'rowspan'), MAX_ROWSPAN),
  };
  if (links.length > 0) out.links = links;
  if (citations.length > 0) out.citations = citations;
  if (skipTables) {
    const inner = findFirst(cell, (e) => tagName(e) === 'table' && !isNoise(e));
    if (inner !== undefined) out.nestedTable = idOf(inner);
  }
  return out;
}

export interface TableResult {
  table: Table;
  /** Tables inside this one's cells, each to become an entry of its own. */
  nested: Element[];
}

/**
 * Reads one table. `idOf` gives the identifier of a table element (the same one every time it is
 * asked), so a cell can name the nested table it holds before that table is read. `layoutTable`
 * is isLayoutTable(el) when the caller already knows it; unset, it is worked out (it scans every
 * cell, so it is not asked twice).
 */
export function readTable(el: Element, idOf: (table: Element) => string, ctx: Context, depth: number, layoutTable?: boolean): TableResult {
  const identifier = idOf(el); // first, so a table is numbered before the tables in its cells
  const own = ownRows(el);
  // Nested tables become entries of their own, except past the depth cap, where the cell keeps
  // their text instead: that bounds both recursion and the number of entries on hostile input.
  const split = depth + 3 <= MAX_DEPTH;
  const source: SourceCell[][] = own.map(({ tr }) => {
    const cells: SourceCell[] = [];
    for (const c of childNodes(tr)) if (isElement(c) && (tagName(c) === 'td' || tagName(c) === 'th') && !isNoise(c)) cells.push(readCell(c, ctx, depth + 1, split, idOf));
    return cells;
  });
  let headRows = 0;
  while (headRows < own.length && own[headRows]!.kind === 'head') headRows++;
  let footRows = 0;
  while (footRows < own.length - headRows && own[own.length - 1 - footRows]!.kind === 'foot') footRows++;
  const laid = layOut(source, headRows, footRows, ctx.budget);
  const nested = split ? findAll(el, (e) => tagName(e) === 'table').filter((t) => !isNoise(t)) : [];
  const score = confidence({ el, source: laid.source, grid: laid.grid, width: laid.width, headerCount: laid.headerCount, nested: nested.length > 0, layoutTable });
  return { table: tableEntry(identifier, laid, score), nested };
}

interface Signals {
  el: Element;
  source: SourceCell[][];
  grid: Grid;
  width: number;
  headerCount: number;
  nested: boolean;
  /** isLayoutTable(el), when already known. */
  layoutTable?: boolean | undefined;
}

/** gridConfidence (./build.ts) on a DOM table's signals: its data class, and whether it is layout or a box. */
export function confidence(s: Signals): number {
  const dataClass = someToken(attr(s.el, 'class'), hasDataClass);
  // An infobox read as a table (one nested in a table's cell) is a box, not data.
  const layout = (s.layoutTable ?? isLayoutTable(s.el)) || isInfobox(s.el);
  return gridConfidence({ ...s, dataClass, layout });
}

/** The `table` part placed in the section: caption as value, references to its entries. */
export function tablePart(el: Element, tables: readonly Table[], ctx: Context, depth: number): Part {
  const part: Part = { type: 'table' };
  const caption = childNodes(el).find((c): c is Element => isElement(c) && tagName(c) === 'caption');
  if (caption !== undefined && depth <= MAX_DEPTH) {
    const { value, links } = inline(caption, ctx, {}, depth);
    if (value.length > 0) part.value = value;
    if (links.length > 0) part.links = links;
  }
  part.table_references = tables.map((t) => ({ identifier: t.identifier, confidence_score: t.confidence_score }));
  return part;
}
