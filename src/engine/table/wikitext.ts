/**
 * Wikitext tables (`{| … |}`) → `Article.tables` entries plus a `table` part, with the span
 * expansion and confidence score of the HTML path (./build.ts, docs/tables.md).
 * A table inside a cell becomes an entry of its own, referenced from the same part.
 */
import type { Part, Table } from '../../schema/article.js';
import type { AstNodes, TableToken, TdToken, Token, TranscludeToken } from '../wikitext/syntax/types.js';
import { MAX_COLSPAN, MAX_ROWSPAN, gridConfidence, layOut, tableEntry, tableIdentifier } from './build.js';
import type { SourceCell } from './build.js';
import { INFOBOX, TABLES } from '../grammar.js';
import { templateKind } from '../wikitext/grammar.js';
import { render } from '../wikitext/render.js';
import type { Scope } from '../wikitext/scope.js';
import type { Collector } from '../collector.js';
import { keep } from '../wikitext/found.js';
import type { Found } from '../wikitext/found.js';
import { pushAll } from '../arrays.js';

/** Tables nested deeper than this in cells are left out (no real article comes near it). */
const MAX_NESTED_TABLES = 50;
const RICH = new Set(['list', 'file', 'table', 'gallery-image']);

interface Rows {
  rows: TdToken[][];
  /** Per row: marked as a footer row (grammar/tables.json footerClasses). */
  foot: boolean[];
  caption: TdToken | undefined;
}

const rowsMemo = new WeakMap<TableToken, Rows>();

/**
 * Memoized per table (the tree is read-only): a table at the root is asked whether it is an
 * infobox or a layout holder, then read, then asked for its caption, each through its rows.
 * Callers never change what it returns.
 */
export function rowsOf(table: TableToken): Rows {
  let known = rowsMemo.get(table);
  if (known === undefined) rowsMemo.set(table, (known = readRows(table)));
  return known;
}

function readRows(table: TableToken): Rows {
  const rows: TdToken[][] = [];
  const foot: boolean[] = [];
  let caption: TdToken | undefined;
  let current: TdToken[] | undefined;
  let footer = false;
  const cell = (td: TdToken): void => {
    if (td.subtype === 'caption') {
      caption ??= td;
      return;
    }
    if (current === undefined) {
      current = [];
      rows.push(current);
      foot.push(footer);
    }
    current.push(td);
  };
  for (const child of table.childNodes) {
    if (child.type === 'td') cell(child as TdToken);
    else if (child.type === 'tr') {
      current = undefined;
      const cls = (child as unknown as { getAttr(name: string): unknown }).getAttr('class');
      footer = typeof cls === 'string' && cls.split(/\s+/).some((c) => TABLES.footerClasses.has(c));
      for (const c of child.childNodes) if (c.type === 'td') cell(c as TdToken);
      current = undefined;
      footer = false;
    }
  }
  // Rows without cells are dropped here already: wikitext has no rowspan reaching into them.
  return { rows, foot, caption };
}

/** Tables and lists inside a cell (bounded search). */
function descendants(root: Token, types: ReadonlySet<string>, limit = 2000): Token[] {
  const out: Token[] = [];
  const stack: AstNodes[] = [...root.childNodes];
  let budget = limit;
  while (stack.length > 0 && budget-- > 0) {
    const n = stack.pop()!;
    // The type once: every node class reads it through a getter of its own, and this walk
    // visits every node of every cell.
    const type = n.type;
    if (type === 'text') continue;
    if (types.has(type)) out.push(n as Token);
    if (type === 'table') continue;
    for (const c of n.childNodes) stack.push(c);
  }
  return out;
}

const clamp = (n: number, max: number): number => (Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), max) : 1);

function classTokens(t: TableToken): string[] {
  const c = t.getAttr('class');
  return typeof c === 'string' ? c.split(/\s+/) : [];
}

function readTable(t: TableToken, idOf: (t: TableToken) => string, scope: Scope, nested: TableToken[], found: Found[]): Table {
  const identifier = idOf(t); // first, so a table is numbered before the tables in its cells
  const { rows, foot } = rowsOf(t);
  const source: SourceCell[][] = rows.map((row) =>
    row.map((td) => {
      const inner = td.lastChild;
      const richNodes = descendants(inner, RICH);
      const tables = richNodes.filter((n): n is TableToken => n.type === 'table');
      pushAll(nested, tables);
      const r = render(scope, inner.childNodes, { skipTables: true, markSuperscripts: true });
      keep(found, r.found);
      const cell: SourceCell = {
        value: r.value,
        header: td.subtype === 'th',
        rich: richNodes.length > 0,
        colspan: clamp(td.colspan, MAX_COLSPAN),
        rowspan: clamp(td.rowspan, MAX_ROWSPAN),
      };
      if (r.links.length > 0) cell.links = r.links;
      if (r.citations.length > 0) cell.citations = r.citations;
      // descendants() returns in reverse document order; the cell names its first table.
      const first = tables[tables.length - 1];
      if (first !== undefined) cell.nestedTable = idOf(first);
      return cell;
    }),
  );
  let footRows = 0;
  while (footRows < foot.length && foot[foot.length - 1 - footRows] === true) footRows++;
  // Wikitext has no <thead>: the leading rows of header cells only are the headers.
  const laid = layOut(source, 0, footRows, scope.budget);
  const classes = classTokens(t);
  const score = gridConfidence({
    source: laid.source,
    grid: laid.grid,
    width: laid.width,
    headerCount: laid.headerCount,
    nested: nested.length > 0,
    dataClass: classes.some((c) => TABLES.dataClasses.has(c)),
    layout: classes.some((c) => TABLES.layoutClasses.has(c)),
  });
  return tableEntry(identifier, laid, score);
}

/** `{| class="infobox"` (any class of grammar/infobox.json): an infobox, as on the HTML door. */
export function isInfoboxTable(t: TableToken): boolean {
  return classTokens(t).some((c) => INFOBOX.classes.has(c));
}

/**
 * A table whose own cells hold an infobox (a template or a `{| class="infobox"`) or a box of
 * grammar/tables.json `layoutHolders` only places them (a style-only wrapper stacking boxes):
 * it is looked through, as the HTML door looks through it (./html.ts isLayoutTable).
 */
export function isLayoutHolder(t: TableToken): boolean {
  const classes = classTokens(t);
  if (classes.some((c) => TABLES.dataClasses.has(c))) return false;
  for (const row of rowsOf(t).rows) {
    for (const td of row) {
      const stack: AstNodes[] = [...td.lastChild.childNodes];
      let budget = 2000;
      while (stack.length > 0 && budget-- > 0) {
        const n = stack.pop()!;
        const type = n.type; // once (see descendants)
        if (type === 'text') continue;
        if (type === 'template' && templateKind((n as Token as TranscludeToken).name).kind === 'infobox') return true;
        if (type === 'table' && classTokens(n as TableToken).some((c) => TABLES.layoutHolders.has(c) || INFOBOX.classes.has(c))) return true;
        for (const c of n.childNodes) stack.push(c);
      }
    }
  }
  return false;
}

/**
 * Reads a table and the tables nested in its cells into the collector's tables; returns the part
 * to place in the section. `path` is the section path the table's identifier is derived from
^ * (./build.ts). What the cells' readings find goes to `found`.
 */
export function tableBlock(t: TableToken, scope: Scope, path: readonly string[], out: Collector, found: Found[]): Part {
  const tables: Table[] = [];
  const ids = new Map<TableToken, string>();
  const idOf = (x: TableToken): string => {
    let id = ids.get(x);
    if (id === undefined) ids.set(x, (id = tableIdentifier(path, out.tables)));
    return id;
  };
  const queue: TableToken[] = [t];
  for (let i = 0; i < queue.length && i < MAX_NESTED_TABLES; i++) {
    const nested: TableToken[] = [];
    const table = readTable(queue[i]!, idOf, scope, nested, found);
    out.table(table);
    tables.push(table);
    pushAll(queue, nested);
  }
  const part: Part = { type: 'table' };
  const { caption } = rowsOf(t);
  if (caption !== undefined) {
    const r = render(scope, caption.lastChild.childNodes);
    keep(found, r.found);
    if (r.value.length > 0) part.value = r.value;
    if (r.links.length > 0) part.links = r.links;
  }
  part.table_references = tables.map((x) => ({ identifier: x.identifier, confidence_score: x.confidence_score }));
  return part;
}
