/**
 * Inside a boilerplate section of a flat (rendered) page, where the heading is a sibling of the
 * content rather than its parent: everything up to the next heading is dropped except its reference
 * lists. First in the preset: while skipping, no other rule applies.
 */
import { isHeadingBlock } from './heading.js';
import { readReferencesIn } from './reference-lists.js';
import type { Rule } from './types.js';

export const boilerplateSkip: Rule = {
  name: 'boilerplate-skip',
  breaks: false,
  test: (el, walk) => walk.tree.skipping && !isHeadingBlock(el),
  run: (el, walk, out) => readReferencesIn(el, walk, out),
};
