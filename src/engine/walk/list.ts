/** `<ul>`, `<ol>`, `<dl>`: a list part; in the lead, also "- item" lines of the abstract. */
import { isList, listPart } from '../blocks/list.js';
import type { Rule } from './types.js';

export const list: Rule = {
  name: 'list',
  breaks: true,
  test: (el) => isList(el),
  run(el, walk, out, depth) {
    const part = listPart(el, walk.ctx, depth);
    if (part === undefined) return;
    if (walk.inAbstract) out.leadList(part);
    walk.block(part, el);
  },
};
