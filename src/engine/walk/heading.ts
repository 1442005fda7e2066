/**
 * `<h1>`–`<h6>`: a heading opens a section by its level (../section-tree.ts), or starts skipping
 * when its title is boilerplate for the article's language (grammar/sections.json).
 */
import type { Element } from '../dom.js';
import { SECTIONS, headingKey } from '../grammar.js';
import { inline } from '../inline.js';
import { hasClassIn } from '../rules.js';
import type { Rule } from './types.js';

/** A Map, not an object literal: an element named `constructor` must not find Object's. */
const LEVELS: ReadonlyMap<string, number> = new Map([['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6]]);

export function headingLevel(el: Element): number | undefined {
  return LEVELS.get(el.name);
}

/** A heading, a Parsoid section, or a rendered page's heading wrapper: what can end a skipped section. */
export function isHeadingBlock(el: Element): boolean {
  return LEVELS.has(el.name) || el.name === 'section' || (el.name === 'div' && hasClassIn(el, SECTIONS.headingWrappers));
}

export const heading: Rule = {
  name: 'heading',
  breaks: true,
  test: (el) => LEVELS.has(el.name),
  run(el, walk, _out, depth) {
    const name = inline(el, walk.ctx, {}, depth).value;
    const section = walk.tree.heading(LEVELS.get(el.name)!, name, walk.ctx.boilerplate.has(headingKey(name)));
    if (section !== undefined) walk.ctx.mark?.(section, el);
  },
};
