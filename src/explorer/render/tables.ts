/**
 * Article.tables: a collapsible entry per table (identifier, size, confidence badge) whose grid
 * is rendered when it is opened — an article can hold dozens of large tables, and a grid nobody
 * opens costs nothing. Header rows are a `<thead>` of column headers, footer rows (totals) a
 * `<tfoot>`, both visibly distinct. Cells keep their links and citation markers (inline.ts), and a
 * cell that holds a table links to that table's own entry: the engine lists nested tables in
 * `Article.tables` too and leaves only their identifier in the cell.
 */
import type { Table, TableCell } from '../../schema/article.js';
import { anchorId, esc } from '../html.js';
import { confidenceBadge } from './badge.js';
import { richText } from './inline.js';
import { MAIN_VIEW, type RenderOptions } from './options.js';

export function renderTableList(tables: readonly Table[], options: RenderOptions): string {
  if (tables.length === 0) return '<p class="empty">No tables.</p>';
  return tables
    .map((table, index) => {
      const id = options.anchors ? ` id="${anchorId('table', table.identifier)}"` : '';
      return (
        `<details class="table-entry"${id} data-table="${index}"><summary><span class="table-name">${esc(table.identifier)}</span> ` +
        `<span class="count">${esc(tableSize(table))}</span> ${confidenceBadge(table.confidence_score)}</summary>` +
        `<div class="grid-scroll"></div></details>`
      );
    })
    .join('');
}

/** "R rows × C columns, H header rows" and ", F footer rows" when there are any. */
export function tableSize(table: Table): string {
  const footers = table.footers ?? [];
  let columns = 0;
  for (const rows of [table.headers, table.rows, footers]) for (const r of rows) columns = Math.max(columns, r.length);
  const headers = table.headers.length === 0 ? 'no header row' : `${table.headers.length} header row${table.headers.length === 1 ? '' : 's'}`;
  const footer = footers.length === 0 ? '' : `, ${footers.length} footer row${footers.length === 1 ? '' : 's'}`;
  return `${table.rows.length} row${table.rows.length === 1 ? '' : 's'} × ${columns} column${columns === 1 ? '' : 's'}, ${headers}${footer}`;
}

/** The grid of one table: header rows in `<thead>`, body rows in `<tbody>`, footer rows in `<tfoot>`. */
export function renderTableGrid(table: Table, options: RenderOptions = MAIN_VIEW): string {
  const rows = (cells: readonly (readonly TableCell[])[], tag: 'th' | 'td') =>
    cells.map((row) => `<tr>${row.map((cell) => `<${tag}${tag === 'th' ? ' scope="col"' : ''}>${renderCell(cell, options)}</${tag}>`).join('')}</tr>`).join('');
  const head = rows(table.headers, 'th');
  const body = rows(table.rows, 'td');
  const foot = rows(table.footers ?? [], 'td');
  return (
    `<table class="grid"><caption class="visually-hidden">${esc(table.identifier)}</caption>` +
    (head === '' ? '' : `<thead>${head}</thead>`) +
    `<tbody>${body || '<tr><td class="empty">No rows.</td></tr>'}</tbody>` +
    (foot === '' ? '' : `<tfoot>${foot}</tfoot>`) +
    '</table>'
  );
}

/** A cell's text with links and citation markers, then the table it holds as a link to that table. */
export function renderCell(cell: TableCell, options: RenderOptions): string {
  const text = richText(cell.value, cell.links, cell.citations, options);
  if (cell.nested_table === undefined) return text;
  const label = `nested table ${esc(cell.nested_table)}`;
  const nested = options.anchors
    ? `<a class="nested-table" href="#${anchorId('table', cell.nested_table)}" aria-label="open ${label}">▦ ${label}</a>`
    : `<span class="nested-table">▦ ${label}</span>`;
  return text === '' ? nested : `${text} ${nested}`;
}
