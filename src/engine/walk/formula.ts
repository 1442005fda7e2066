/**
 * A displayed formula (../math.ts decides which elements are one): a `formula` part. Placed before
 * `noise`: the MathML of a formula is hidden with `display:none` (the rendered image stands in for
 * it), so the noise rule's hidden-style test would drop the very element that holds the TeX.
 */
import { formulaPart, isBlockFormula } from '../math.js';
import type { Rule } from './types.js';

export const formula: Rule = {
  name: 'formula',
  breaks: true,
  test: (el) => isBlockFormula(el),
  run(el, walk) {
    const part = formulaPart(el);
    if (part !== undefined) walk.block(part, el);
  },
};
