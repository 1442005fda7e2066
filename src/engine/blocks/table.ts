/**
 * Content tables → `Article.tables` entries (a rectangular grid) plus a `table` part at the
 * table's place in its section. See docs/tables.md for the span rule and the confidence formula.
 */
import type { Part, Table, TableCell } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { findAll, findFirst, hasClass, isElement, someToken } from '../dom.js';
import type { Context } from '../context.js';
import { MAX_DEPTH } from '../context.js';
import { TABLES } from '../grammar.js';
import { inline } from '../inline.js';
import { isNoise } from '../rules.js';

/** HTML caps (§4.9.11): colspan ≤ 1000, rowspan ≤ 65534; the grid itself is capped too. */
export const MAX_COLSPAN = 1000;
export const MAX_ROWSPAN = 65534;
const MAX_CELLS = 1_000_000;

const hasDataClass = (t: string): boolean => TABLES.dataClasses.has(t);
const hasLayoutClass = (t: string): boolean => TABLES.layoutClasses.has(t);

export function isLayoutTable(table: Element): boolean {
  const role = table.attribs.role;
  if (role !== undefined && TABLES.layoutRoles.has(role)) return true;
  return someToken(table.attribs.class, hasLayoutClass);
}

export interface SourceCell {
  value: string;
  header: boolean;
  rich: boolean;
  colspan: number;
  rowspan: number;
}

/** The rows of this table only: direct, or in thead/tbody/tfoot; never rows of nested tables. */
function ownRows(table: Element): { rows: Element[]; headRows: number } {
  const rows: Element[] = [];
  let headRows = 0;
  for (const child of table.children) {
    if (!isElement(child)) continue;
    if (child.name === 'tr') rows.push(child);
    else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
      for (const tr of child.children) {
        if (!isElement(tr) || tr.name !== 'tr') continue;
        rows.push(tr);
        if (child.name === 'thead') headRows++;
      }
    }
  }
  return { rows, headRows };
}

function span(value: string | undefined, max: number): number {
  if (value === undefined) return 1;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, max);
}

function readCell(cell: Element, ctx: Context, depth: number, skipTables: boolean): SourceCell {
  const value = inline(cell, ctx, { skipTables }, depth).value;
  const rich = findFirst(cell, (e) => e.name === 'ul' || e.name === 'ol' || e.name === 'img' || e.name === 'table') !== undefined;
  return {
    value,
    header: cell.name === 'th',
    rich,
    colspan: span(cell.attribs.colspan, MAX_COLSPAN),
    rowspan: span(cell.attribs.rowspan, MAX_ROWSPAN),
  };
}

export interface TableResult {
  table: Table;
  /** Tables inside this one's cells, each to become an entry of its own. */
  nested: Element[];
}

export function readTable(el: Element, identifier: string, ctx: Context, depth: number): TableResult {
  const { rows: trs, headRows } = ownRows(el);
  // Nested tables become entries of their own, except past the depth cap, where the cell keeps
  // their text instead: that bounds both recursion and the number of entries on hostile input.
  const split = depth + 3 <= MAX_DEPTH;
  const source: SourceCell[][] = trs.map((tr) => {
    const cells: SourceCell[] = [];
    for (const c of tr.children) if (isElement(c) && (c.name === 'td' || c.name === 'th') && !isNoise(c)) cells.push(readCell(c, ctx, depth + 1, split));
    return cells;
  });
  const { grid, width, cells, headerCount } = layOut(source, headRows);
  const nested = split ? findAll(el, (e) => e.name === 'table').filter((t) => !isNoise(t)) : [];
  const table: Table = {
    identifier,
    headers: cells.slice(0, headerCount),
    rows: cells.slice(headerCount),
    confidence_score: confidence({ el, source, grid, width, headerCount, nested: nested.length > 0 }),
  };
  return { table, nested };
}

export interface LaidOut {
  grid: Grid;
  width: number;
  /** The rectangular grid of values: every row padded to `width`. */
  cells: TableCell[][];
  headerCount: number;
}

/**
 * Expands the spans, pads every row to the full width so the grid is rectangular, and counts the
 * header rows: those of <thead> (`headRows`), or else the leading rows of header cells only.
 */
export function layOut(source: SourceCell[][], headRows: number): LaidOut {
  const grid = expand(source);
  const width = grid.slots.reduce((w, r) => Math.max(w, r.length), 0);
  const cells: TableCell[][] = grid.slots.map((r) => {
    const row: TableCell[] = [];
    for (let i = 0; i < width; i++) row.push({ value: r[i]?.value ?? '' });
    return row;
  });
  let headerCount = headRows;
  if (headerCount === 0) {
    while (headerCount < source.length && source[headerCount]!.length > 0 && source[headerCount]!.every((c) => c.header)) headerCount++;
    if (headerCount === source.length) headerCount = Math.min(1, source.length);
  }
  return { grid, width, cells, headerCount };
}

export interface Grid {
  slots: (SourceCell | undefined)[][];
  /** Per grid row: how many slots a cell (own or spanning from above) fills. */
  filled: number[];
  truncated: boolean;
}

/**
 * Span expansion (HTML §4.9.12 table model): a cell fills every slot it spans, so a spanned value
 * is repeated in each row and column it covers. Rowspans stop at the last row of the table.
 */
export function expand(source: SourceCell[][]): Grid {
  const slots: (SourceCell | undefined)[][] = source.map(() => []);
  let cells = 0;
  let truncated = false;
  for (let r = 0; r < source.length; r++) {
    let col = 0;
    for (const cell of source[r]!) {
      while (slots[r]![col] !== undefined) col++;
      const rows = Math.min(cell.rowspan, source.length - r);
      for (let dr = 0; dr < rows; dr++) {
        for (let dc = 0; dc < cell.colspan; dc++) {
          if (++cells > MAX_CELLS) {
            truncated = true;
            break;
          }
          slots[r + dr]![col + dc] = cell;
        }
      }
      col += cell.colspan;
    }
  }
  const filled = slots.map((row) => row.reduce((n, s) => (s === undefined ? n : n + 1), 0));
  return { slots, filled, truncated };
}

interface Signals {
  el: Element;
  source: SourceCell[][];
  grid: Grid;
  width: number;
  headerCount: number;
  nested: boolean;
}

/**
 * How far a consumer can trust the grid as a data table, in [0, 1] (docs/tables.md):
 *   base = 0.35·regular + 0.25·header + 0.15·(1 − empty) + 0.15·(1 − rich) + 0.10·dataClass
 *   score = base × (nested ? 0.7 : 1) × (layout ? 0.5 : 1) × (tiny ? 0.5 : 1) × (truncated ? 0.5 : 1)
 */
export function confidence(s: Signals): number {
  const dataClass = someToken(s.el.attribs.class, hasDataClass);
  const layout = isLayoutTable(s.el) || hasClass(s.el, 'infobox');
  return gridConfidence({ ...s, dataClass, layout });
}

export interface GridSignals {
  source: SourceCell[][];
  grid: Grid;
  width: number;
  headerCount: number;
  nested: boolean;
  dataClass: boolean;
  layout: boolean;
}

/** The formula above on signals that no longer need the DOM (shared with the wikitext path). */
export function gridConfidence(s: GridSignals): number {
  const rows = s.grid.slots.length;
  if (rows === 0 || s.width === 0) return 0;
  const regular = s.grid.filled.filter((n) => n === s.width).length / rows;
  const rowHeaders = s.source.filter((r) => r[0]?.header === true).length / rows;
  const header = s.headerCount > 0 && s.source[0]?.every((c) => c.header) === true ? 1 : rowHeaders >= 0.5 ? 0.5 : 0;
  let slots = 0;
  let empty = 0;
  let rich = 0;
  for (const row of s.grid.slots) {
    for (let i = 0; i < s.width; i++) {
      slots++;
      const cell = row[i];
      if (cell === undefined || cell.value.length === 0) empty++;
      if (cell?.rich === true) rich++;
    }
  }
  const base = 0.35 * regular + 0.25 * header + 0.15 * (1 - empty / slots) + 0.15 * (1 - rich / slots) + 0.1 * (s.dataClass ? 1 : 0);
  const tiny = rows < 2 || s.width < 2;
  const score = base * (s.nested ? 0.7 : 1) * (s.layout ? 0.5 : 1) * (tiny ? 0.5 : 1) * (s.grid.truncated ? 0.5 : 1);
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

/** The `table` part placed in the section: caption as value, references to its entries. */
export function tablePart(el: Element, tables: readonly Table[], ctx: Context, depth: number): Part {
  const part: Part = { type: 'table' };
  const caption = el.children.find((c): c is Element => isElement(c) && c.name === 'caption');
  if (caption !== undefined && depth <= MAX_DEPTH) {
    const { value, links } = inline(caption, ctx, {}, depth);
    if (value.length > 0) part.value = value;
    if (links.length > 0) part.links = links;
  }
  part.table_references = tables.map((t) => ({ identifier: t.identifier, confidence_score: t.confidence_score }));
  return part;
}
