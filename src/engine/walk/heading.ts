/**
 * `<h1>`–`<h6>`: a heading opens a section by its level (../section-tree.ts), or starts skipping
 * when the section is boilerplate: by its title for the article's language (grammar/sections.json)
 * or, on a flat page, by what the run up to the next heading holds (../boilerplate.ts; a Parsoid
 * `<section>` was judged whole by the section rule).
 */
import type { AnyNode, Element } from '../dom.js';
import { findFirst, firstElementChild, isElement, nextSibling, parentOf, tagName } from '../dom.js';
import { holdsOnlyBoilerplate } from '../boilerplate.js';
import { SECTIONS, headingKey } from '../grammar.js';
import { inline } from '../inline.js';
import { hasClassIn } from '../rules.js';
import type { Rule } from './types.js';

/** A Map, not an object literal: an element named `constructor` must not find Object's. */
const LEVELS: ReadonlyMap<string, number> = new Map([['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6]]);

/** A heading, a Parsoid section, or a rendered page's heading wrapper: what can end a skipped section. */
export function isHeadingBlock(el: Element): boolean {
  return LEVELS.has(tagName(el)) || tagName(el) === 'section' || isHeadingWrapper(el);
}

const isHeadingWrapper = (el: Element): boolean => tagName(el) === 'div' && hasClassIn(el, SECTIONS.headingWrappers);

/** The heading a section opens with: its first element, or the heading inside its first element's wrapper. */
export function sectionHeading(section: Element): Element | undefined {
  const first = firstElementChild(section);
  if (first === undefined) return undefined;
  if (LEVELS.has(tagName(first))) return first;
  return isHeadingWrapper(first) ? findFirst(first, (e) => LEVELS.has(tagName(e))) : undefined;
}

export const heading: Rule = {
  name: 'heading',
  breaks: true,
  test: (el) => LEVELS.has(tagName(el)),
  run(el, walk, _out, depth) {
    const name = inline(el, walk.ctx, {}, depth).value;
    const level = LEVELS.get(tagName(el))!;
    const boilerplate = walk.ctx.boilerplate.has(headingKey(name)) || (opensFlatSection(el) && holdsOnlyBoilerplate(flatSection(el, level)));
    const section = walk.tree.heading(level, name, boilerplate);
    if (section !== undefined) walk.ctx.mark?.(section, el);
  },
};

/** The heading, or the wrapper around it (rendered pages since 2024, mobile-html): what stands among the blocks. */
function headingBlock(el: Element): Element {
  const parent = parentOf(el);
  return parent !== null && isElement(parent) && isHeadingWrapper(parent) ? parent : el;
}

/** The heading does not open a `<section>` (which the section rule judged whole): it stands among its section's blocks. */
function opensFlatSection(el: Element): boolean {
  const parent = parentOf(headingBlock(el));
  return !(parent !== null && isElement(parent) && tagName(parent) === 'section' && sectionHeading(parent) === el);
}

/** The nodes after a flat page's heading up to the next heading of its level or higher. */
function* flatSection(el: Element, level: number): Generator<AnyNode> {
  for (let n = nextSibling(headingBlock(el)); n !== null; n = nextSibling(n)) {
    if (isElement(n)) {
      const next = tagName(n) === 'section' ? 0 : headingOf(n);
      if (next !== undefined && next <= level) return;
    }
    yield n;
  }
}

/** The level of a heading block: a heading, or the heading in a wrapper. */
function headingOf(el: Element): number | undefined {
  const own = LEVELS.get(tagName(el));
  if (own !== undefined || !isHeadingWrapper(el)) return own;
  const inner = findFirst(el, (e) => LEVELS.has(tagName(e)));
  return inner === undefined ? undefined : LEVELS.get(tagName(inner));
}
