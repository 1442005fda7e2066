/**
 * Parsoid's `<section data-mw-section-id>` (Specs/HTML §Headings and Sections): walked as a
 * container, its heading opening the section. A boilerplate one — by its title
 * (grammar/sections.json) or by what it holds (../boilerplate.ts) — is skipped whole without
 * walking its subtree, only its reference lists read.
 */
import { holdsOnlyBoilerplate } from '../boilerplate.js';
import { headingKey } from '../grammar.js';
import { inline } from '../inline.js';
import { sectionHeading } from './heading.js';
import { readReferencesIn } from './reference-lists.js';
import type { Rule } from './types.js';
import { childNodes, tagName } from '../dom.js';

export const section: Rule = {
  name: 'section',
  breaks: true,
  test: (el) => tagName(el) === 'section',
  run(el, walk, out, depth) {
    const first = sectionHeading(el);
    if (first !== undefined) {
      const name = inline(first, walk.ctx, {}, depth).value;
      if (walk.ctx.boilerplate.has(headingKey(name)) || holdsOnlyBoilerplate(childNodes(el))) return readReferencesIn(el, walk, out);
    }
    walk.children(el, depth);
  },
};
