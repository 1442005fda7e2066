/**
 * A table opened and closed by templates, its rows written between them (frwiki
 * {{ÉluDébut|Titre=…}} … {{ÉluFin}}, the list of mayors of every French commune: grammar
 * `tableTemplates`): the opening template prints `{|`, a caption and a header row, the closing one
 * `|}`, so the parser sees only loose row markup (`| 1959 || 1971 || …`), which leaked as text. The
 * rule writes the table as the page shows it — the grammar's header row, the caption from the
 * opening template, the rows as written — parses it with the page's own configuration and reads
 * it as any table (rules/table.ts); the nodes through the closing template are then passed over.
 */
import type { AstNodes, TableToken, TranscludeToken } from '../syntax/types.js';
import { normalizeTemplateName } from '../../grammar.js';
import { tableTemplate } from '../grammar.js';
import type { TableTemplate } from '../grammar.js';
import { parseTree } from '../tree.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';
import { table } from './table.js';

export const tableTemplateRule: WikitextRule = {
  name: 'table-template',
  breaks: true,
  test: (n) => n.type === 'template' && tableTemplate((n as TranscludeToken).name) !== undefined && aloneOnLine(n) && closingOf(n as TranscludeToken) !== undefined,
  run(n, walk, out) {
    const open = n as TranscludeToken;
    const rule = tableTemplate(open.name)!;
    const close = closingOf(open)!;
    walk.skipThrough(close);
    const rows: string[] = [];
    for (let x = open.nextSibling; x !== undefined && x !== close; x = x.nextSibling) rows.push(String(x));
    const written = parseTree(tableMarkup(open, rule, rows.join('')), walk.ctx.profile);
    const node = written?.childNodes.find((c): c is TableToken => c.type === 'table');
    if (node !== undefined) table.run(node, walk, out);
  },
};

/**
 * The template closing this one: a later sibling of a closing name, before any other opening and
 * before the next heading (a table the page never closes in its section is no table read here:
 * its rows stay text rather than the rest of the page becoming one table).
 */
function closingOf(open: TranscludeToken): AstNodes | undefined {
  const rule = tableTemplate(open.name)!;
  for (let x = open.nextSibling; x !== undefined; x = x.nextSibling) {
    if (x.type === 'heading') return undefined;
    if (x.type !== 'template') continue;
    const name = (x as TranscludeToken).name;
    if (rule.end.has(normalizeTemplateName(name))) return x;
    if (tableTemplate(name) !== undefined) return undefined;
  }
  return undefined;
}

/** The table as the page shows it: opening, caption, the template's header row, the rows written between. */
function tableMarkup(open: TranscludeToken, rule: TableTemplate, rows: string): string {
  let caption: string | undefined;
  for (const arg of open.getAllArgs()) {
    if (rule.caption.includes(arg.name.trim().toLowerCase()) && arg.getValue().trim().length > 0) caption = arg.getValue().trim();
  }
  return `{|\n${caption === undefined ? '' : `|+ ${caption}\n`}${rule.header}\n|-${rows.startsWith('\n') ? '' : '\n'}${rows}\n|}`;
}
