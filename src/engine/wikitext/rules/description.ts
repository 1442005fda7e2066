/** A short description template alone on its line ({{Short description|…}}): the description, never text. */
import type { TranscludeToken } from '../syntax/types.js';
import { templateKind } from '../grammar.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';

export const description: WikitextRule = {
  name: 'description',
  breaks: true,
  test: (n) => n.type === 'template' && templateKind((n as TranscludeToken).name).kind === 'description' && aloneOnLine(n),
  run(n, walk) {
    walk.commit([{ kind: 'description', token: n as TranscludeToken }]);
  },
};
