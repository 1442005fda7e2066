/**
 * Parsoid's `<section data-mw-section-id>` (Specs/HTML §Headings and Sections): walked as a
 * container, its heading opening the section; a boilerplate one is skipped whole without walking
 * its subtree, only its reference lists read.
 */
import { firstElementChild } from '../dom.js';
import { headingKey } from '../grammar.js';
import { inline } from '../inline.js';
import { headingLevel } from './heading.js';
import { readReferencesIn } from './reference-lists.js';
import type { Rule } from './types.js';

export const section: Rule = {
  name: 'section',
  breaks: true,
  test: (el) => el.name === 'section',
  run(el, walk, out, depth) {
    const first = firstElementChild(el);
    if (first !== undefined && headingLevel(first) !== undefined) {
      const name = inline(first, walk.ctx, {}, depth).value;
      if (walk.ctx.boilerplate.has(headingKey(name))) return readReferencesIn(el, walk, out);
    }
    walk.children(el, depth);
  },
};
