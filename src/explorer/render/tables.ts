/**
 * Article.tables: a collapsible entry per table (identifier, size, confidence badge) whose grid
 * is rendered when it is opened — an article can hold dozens of large tables, and a grid nobody
 * opens costs nothing. Header rows are a `<thead>` of column headers, visibly distinct.
 */
import type { Table } from '../../schema/article.js';
import { anchorId, esc } from '../html.js';
import { confidenceBadge } from './badge.js';
import type { RenderOptions } from './options.js';

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

/** "R rows × C columns, H header rows". */
export function tableSize(table: Table): string {
  const columns = Math.max(0, ...table.headers.map((r) => r.length), ...table.rows.map((r) => r.length));
  const headers = table.headers.length === 0 ? 'no header row' : `${table.headers.length} header row${table.headers.length === 1 ? '' : 's'}`;
  return `${table.rows.length} row${table.rows.length === 1 ? '' : 's'} × ${columns} column${columns === 1 ? '' : 's'}, ${headers}`;
}

/** The grid of one table. The Table schema has header rows and body rows; there are no footers in it. */
export function renderTableGrid(table: Table): string {
  const head = table.headers.map((row) => `<tr>${row.map((cell) => `<th scope="col">${esc(cell.value)}</th>`).join('')}</tr>`).join('');
  const body = table.rows.map((row) => `<tr>${row.map((cell) => `<td>${esc(cell.value)}</td>`).join('')}</tr>`).join('');
  return (
    `<table class="grid"><caption class="visually-hidden">${esc(table.identifier)}</caption>` +
    (head === '' ? '' : `<thead>${head}</thead>`) +
    `<tbody>${body || '<tr><td class="empty">No rows.</td></tr>'}</tbody></table>`
  );
}
