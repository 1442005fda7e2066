/**
 * A content table: one entry in Article.tables for it and for each table nested in its cells (the
 * nested ones named by identifier in their cell), and one table part in the section. A reference
 * list inside the table (a family tree's "Notes:" row holding a {{reflist|group=n}}) gives its
 * entries to `references`, as it would outside: the table's markers point at them.
 */
import type { Table } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { tagName } from '../dom.js';
import { tableIdentifier } from '../table/build.js';
import { readTable, tablePart } from '../table/html.js';
import { readReferencesIn } from './reference-lists.js';
import type { Rule } from './types.js';

export const table: Rule = {
  name: 'table',
  breaks: true,
  test: (el) => tagName(el) === 'table',
  run(el, walk, out, depth) {
    const entries: Table[] = [];
    const ids = new Map<Element, string>();
    const path = walk.tree.path;
    const idOf = (t: Element): string => {
      let id = ids.get(t);
      if (id === undefined) ids.set(t, (id = tableIdentifier(path, out.tables)));
      return id;
    };
    const queue = [{ el, depth }];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      // The layout-table rule, tried before this one, found `el` no layout table; nested tables are still to be asked.
      const read = readTable(next.el, idOf, walk.ctx, next.depth, next.el === el ? false : undefined);
      out.table(read.table);
      entries.push(read.table);
      // table > tr > td: each nesting level is at least three elements deeper.
      for (const inner of read.nested) queue.push({ el: inner, depth: next.depth + 3 });
    }
    walk.block(tablePart(el, entries, walk.ctx, depth), el);
    readReferencesIn(el, walk, out);
  },
};
