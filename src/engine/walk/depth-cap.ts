/**
 * Past MAX_DEPTH (../context.ts) a block is read as one paragraph of its text, whatever it is:
 * the recursive rules below it would otherwise go on nesting on adversarial input.
 */
import { MAX_DEPTH } from '../context.js';
import { paragraphOf } from './paragraph.js';
import type { Rule } from './types.js';

export const depthCap: Rule = {
  name: 'depth-cap',
  breaks: true,
  test: (_el, _walk, depth) => depth > MAX_DEPTH,
  run: (el, walk, out, depth) => paragraphOf(el, el, walk, out, depth),
};
