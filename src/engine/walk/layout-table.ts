/**
 * A table that only places other boxes (grammar/tables.json layout classes, roles and holders) is
 * looked through: its cells are walked as blocks. Before `table`, which would read it as data.
 */
import { isLayoutTable } from '../table/html.js';
import type { Rule } from './types.js';
import { tagName } from '../dom.js';

export const layoutTable: Rule = {
  name: 'layout-table',
  breaks: true,
  test: (el) => tagName(el) === 'table' && isLayoutTable(el),
  run: (el, walk, _out, depth) => walk.children(el, depth),
};
