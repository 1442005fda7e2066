/**
 * An infobox template alone on its line (where nearly all are written): an infobox part. One
 * written inside a line of text is found by the renderer and committed with that line
 * (walker.ts `commit`); both end in the same place.
 */
import type { TranscludeToken } from '../syntax/types.js';
import { templateKind } from '../grammar.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';

export const infobox: WikitextRule = {
  name: 'infobox',
  breaks: true,
  test: (n) => n.type === 'template' && templateKind((n as TranscludeToken).name).kind === 'infobox' && aloneOnLine(n),
  run(n, walk) {
    walk.commit([{ kind: 'infobox', token: n as TranscludeToken }]);
  },
};
