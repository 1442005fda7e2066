/** `{| class="infobox"`: an infobox, collected wherever it stands, as infobox templates are. */
import type { TableToken } from '../syntax/types.js';
import type { Found } from '../found.js';
import { tableInfoboxPart } from '../../infobox/wikitext.js';
import { isInfoboxTable } from '../../table/wikitext.js';
import type { WikitextRule } from '../types.js';

export const infoboxTable: WikitextRule = {
  name: 'infobox-table',
  breaks: true,
  test: (n) => n.type === 'table' && isInfoboxTable(n as TableToken),
  run(n, walk, out) {
    const found: Found[] = [];
    const part = tableInfoboxPart(n as TableToken, walk.ctx, found);
    walk.commit(found);
    if (part !== undefined) out.infobox(part);
  },
};
