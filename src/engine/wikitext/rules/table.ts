/** A data table: entries in `Article.tables` (its own and those nested in its cells) and a `table` part. */
import type { TableToken } from '../syntax/types.js';
import type { Found } from '../found.js';
import { tableBlock } from '../../table/wikitext.js';
import type { WikitextRule } from '../types.js';

export const table: WikitextRule = {
  name: 'table',
  breaks: true,
  test: (n) => n.type === 'table',
  run(n, walk, out) {
    // A table of a dropped (boilerplate) section is no table of the article.
    if (walk.tree.skipping) return;
    const found: Found[] = [];
    const part = tableBlock(n as TableToken, walk.ctx, walk.tree.path, out, found);
    walk.commit(found);
    walk.block(part);
  },
};
