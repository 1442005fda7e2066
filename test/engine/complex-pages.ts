/**
 * Pages that ask for far more work than their size: the attacks of issue 22, item 2, for the
 * budget tests (test/engine/budget.test.ts) and the service and batch tests that send them.
 */

/**
 * The page: 45 small tables whose 45 rows each hold one cell spanning 1000 columns and
 * 1000 rows (every row's cell reaches to the table's end), about 92 KB. Before the work budget the
 * engine expanded it to 45 million cells and ran out of memory.
 */
export function colspanTablesHtml(tables = 45, rows = 45): string {
  const table = `<table class="wikitable">${'<tr><td colspan=1000 rowspan=1000>x</td></tr>'.repeat(rows)}</table>`;
  return `<html><head><title>Spans</title></head><body><p>Lead.</p>${table.repeat(tables)}</body></html>`;
}

/** The same in wikitext. */
export function colspanTablesWikitext(tables = 45, rows = 45): string {
  const table = `{| class="wikitable"\n${'|-\n| colspan=1000 rowspan=1000 | x\n'.repeat(rows)}|}\n`;
  return `Lead.\n\n${table.repeat(tables)}`;
}

/**
 * One table of about 1 KB whose first cell spans `columns` × `rows` slots: over the cell limit of
 * a small page, yet small enough to parse without the budget (so a test of it fails cleanly, not
 * by running out of memory, on code without the limit).
 */
export function spannedTableHtml(columns = 1000, rows = 100): string {
  return `<html><body><p>Lead.</p><table class="wikitable"><tr><td colspan=${columns} rowspan=${rows}>x</td></tr>${'<tr>'.repeat(rows - 1)}</table></body></html>`;
}
