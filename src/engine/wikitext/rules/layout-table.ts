/**
 * A table that only places boxes (an infobox in a cell, grammar/tables.json `layoutHolders`): its
 * cells are read as top-level content of the section, one after the other, as the HTML door looks
 * through such a table.
 */
import type { TableToken } from '../syntax/types.js';
import { isLayoutHolder, rowsOf } from '../../table/wikitext.js';
import type { WikitextRule } from '../types.js';

export const layoutTable: WikitextRule = {
  name: 'layout-table',
  breaks: true,
  test: (n) => n.type === 'table' && isLayoutHolder(n as TableToken),
  run(n, walk) {
    const { rows, caption } = rowsOf(n as TableToken);
    for (const td of caption === undefined ? rows.flat() : [caption, ...rows.flat()]) walk.nodes(td.lastChild.childNodes);
  },
};
