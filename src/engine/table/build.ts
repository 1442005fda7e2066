/**
 * The table output both doors share (docs/tables.md): span expansion into a rectangular grid,
 * header and footer rows, the `Article.tables` entry, its identifier and its confidence score.
 * Each door reads its own markup into `SourceCell`s (./html.ts, ./wikitext.ts) and hands them here.
 */
import type { Citation, Link, Table, TableCell } from '../../schema/article.js';
import type { WorkBudget } from '../budget.js';

/** HTML caps (§4.9.11): colspan ≤ 1000, rowspan ≤ 65534; the grid itself is capped too. */
export const MAX_COLSPAN = 1000;
export const MAX_ROWSPAN = 65534;
const MAX_CELLS = 1_000_000;

export interface SourceCell {
  value: string;
  header: boolean;
  rich: boolean;
  colspan: number;
  rowspan: number;
  links?: Link[];
  citations?: Citation[];
  /** Identifier of the table this cell holds. */
  nestedTable?: string;
}

/** The Table entry of a laid-out grid: headers, body rows and footers, in that order. */
export function tableEntry(identifier: string, laid: LaidOut, confidence_score: number): Table {
  const { cells, headerCount, footerCount } = laid;
  const headers = cells.slice(0, headerCount);
  const rows = cells.slice(headerCount, cells.length - footerCount);
  // The key order of the schema: footers, when there are any, before the score.
  if (footerCount === 0) return { identifier, headers, rows, confidence_score };
  return { identifier, headers, rows, footers: cells.slice(cells.length - footerCount), confidence_score };
}

const usedIds = new WeakMap<readonly Table[], Set<string>>();
/** Per article and section path, the number to try first: counting from 1 each time was quadratic in a section's tables. */
const nextNumber = new WeakMap<readonly Table[], Map<string, number>>();

/**
 * A table's identifier: its section path (lower case, spaces as "_", joined by ".") and its
 * position in that section, e.g. "nominations.republican_party_table1" — the form of the
 * production parser. `tables` is the article's list so far; the number skips identifiers already
 * taken, so two sections with the same path still give unique identifiers.
 */
export function tableIdentifier(path: readonly string[], tables: readonly Table[]): string {
  let used = usedIds.get(tables);
  if (used === undefined) {
    used = new Set(tables.map((t) => t.identifier));
    usedIds.set(tables, used);
  }
  const base = path.map((name) => name.trim().toLowerCase().replace(/\s+/g, '_')).join('.');
  let next = nextNumber.get(tables);
  if (next === undefined) nextNumber.set(tables, (next = new Map()));
  let n = next.get(base) ?? 1;
  while (used.has(`${base}_table${n}`)) n++;
  const id = `${base}_table${n}`;
  used.add(id);
  next.set(base, n + 1);
  return id;
}

export interface LaidOut {
  grid: Grid;
  width: number;
  /** The rectangular grid of values: every row padded to `width`. */
  cells: TableCell[][];
  /** The source rows kept (empty rows dropped), in step with `grid` and `cells`. */
  source: SourceCell[][];
  headerCount: number;
  footerCount: number;
}

/**
 * Expands the spans, drops empty rows (a <tr> without cells that no rowspan reaches), pads every
 * row to the full width so the grid is rectangular, and counts the header rows: those of <thead>
 * (`headRows`), or else the leading rows of header cells only, after any title rows (one cell
 * across the whole table) above them. The last `footRows` rows are footers.
 */
export function layOut(allSource: SourceCell[][], headRows: number, footRows = 0, budget?: WorkBudget): LaidOut {
  const full = expand(allSource, budget);
  const keep: number[] = [];
  for (let r = 0; r < allSource.length; r++) if (full.filled[r]! > 0) keep.push(r);
  const below = (limit: number): number => keep.filter((r) => r < limit).length;
  const source = keep.map((r) => allSource[r]!);
  const grid: Grid = { slots: keep.map((r) => full.slots[r]!), filled: keep.map((r) => full.filled[r]!), truncated: full.truncated };
  const width = grid.slots.reduce((w, r) => Math.max(w, r.length), 0);
  // Padding makes cells too: a long first row and a long column ask rows × width of them.
  budget?.charge('cells', grid.slots.length * width - grid.filled.reduce((n, f) => n + f, 0));
  const cells: TableCell[][] = grid.slots.map((r) => {
    const row: TableCell[] = [];
    for (let i = 0; i < width; i++) row.push(tableCell(r[i]));
    return row;
  });
  const footerCount = keep.length - below(allSource.length - footRows);
  const bodyEnd = source.length - footerCount;
  let headerCount = below(headRows);
  if (headerCount === 0) {
    const allHeader = (r: number): boolean => source[r]!.length > 0 && source[r]!.every((c) => c.header);
    let first = 0;
    // A title row (one cell spanning the table) above the header row belongs to the headers.
    while (first < bodyEnd && source[first]!.length === 1 && source[first]![0]!.colspan >= width && width > 1) first++;
    let end = first;
    while (end < bodyEnd && allHeader(end)) end++;
    headerCount = end > first ? end : 0;
    if (headerCount === 0) while (headerCount < bodyEnd && allHeader(headerCount)) headerCount++;
    if (headerCount === bodyEnd) headerCount = Math.min(1, bodyEnd);
  }
  return { grid, width, cells, source, headerCount, footerCount };
}

function tableCell(cell: SourceCell | undefined): TableCell {
  const out: TableCell = { value: cell?.value ?? '' };
  if (cell?.links !== undefined) out.links = cell.links;
  if (cell?.citations !== undefined) out.citations = cell.citations;
  if (cell?.nestedTable !== undefined) out.nested_table = cell.nestedTable;
  return out;
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
export function expand(source: SourceCell[][], budget?: WorkBudget): Grid {
  const slots: (SourceCell | undefined)[][] = source.map(() => []);
  let cells = 0;
  let truncated = false;
  for (let r = 0; r < source.length; r++) {
    let col = 0;
    for (const cell of source[r]!) {
      while (slots[r]![col] !== undefined) col++;
      const rows = Math.min(cell.rowspan, source.length - r);
      budget?.spanned(cell, rows * cell.colspan);
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

export interface GridSignals {
  source: SourceCell[][];
  grid: Grid;
  width: number;
  headerCount: number;
  nested: boolean;
  dataClass: boolean;
  layout: boolean;
}

/**
 * How far a consumer can trust the grid as a data table, in [0, 1] (docs/tables.md):
 *   base = 0.35·regular + 0.25·header + 0.15·(1 − empty) + 0.15·(1 − rich) + 0.10·dataClass
 *   score = base × (nested ? 0.7 : 1) × (layout ? 0.5 : 1) × (tiny ? 0.5 : 1) × (truncated ? 0.5 : 1)

 * On signals that no longer need the markup: each door gives its own (html.ts `confidence`).
 */
export function gridConfidence(s: GridSignals): number {
  const rows = s.grid.slots.length;
  if (rows === 0 || s.width === 0) return 0;
  const regular = s.grid.filled.filter((n) => n === s.width).length / rows;
  const rowHeaders = s.source.filter((r) => r[0]?.header === true).length / rows;
  // The last header row is the one that names the columns (a title row may stand above it).
  const header = s.headerCount > 0 && s.source[s.headerCount - 1]?.every((c) => c.header) === true ? 1 : rowHeaders >= 0.5 ? 0.5 : 0;
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
