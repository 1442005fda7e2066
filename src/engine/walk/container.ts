/** Any other block (`<div>`, `<blockquote>`, a cell…): its children are walked as blocks. Last: it matches everything. */
import type { Rule } from './types.js';

export const container: Rule = {
  name: 'container',
  breaks: true,
  test: () => true,
  run: (el, walk, _out, depth) => walk.children(el, depth),
};
