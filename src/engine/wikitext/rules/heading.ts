/**
 * A heading opens a section by level; a boilerplate title (grammar/sections.json) drops the
 * section with its subsections, as on the HTML door. The name is a text-only reading: what it
 * finds (a footnote in a heading) is not the article's twice.
 */
import type { HeadingToken } from '../syntax/types.js';
import { headingKey } from '../../grammar.js';
import { render } from '../render.js';
import type { WikitextRule } from '../types.js';

export const heading: WikitextRule = {
  name: 'heading',
  breaks: true,
  test: (n) => n.type === 'heading',
  run(n, walk) {
    const h = n as HeadingToken;
    const name = render(walk.ctx, h.firstChild.childNodes, { abstract: true, textOnly: true }).value;
    walk.tree.heading(h.level, name, walk.ctx.boilerplate.has(headingKey(name)));
  },
};
