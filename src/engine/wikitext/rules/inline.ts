/** Anything else (a link, a template in running text, a `<ref>`): a piece of the current line, rendered with it. */
import type { WikitextRule } from '../types.js';

export const inline: WikitextRule = {
  name: 'inline',
  breaks: false,
  test: () => true,
  run(n, walk) {
    walk.piece(n);
  },
};
