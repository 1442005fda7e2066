/**
 * A box set apart from the text (grammar/sections.json `notInAbstract`, e.g. enwiki's quote box):
 * its content stays in the section, but what it holds never becomes part of the abstract, even
 * when the box opens the lead. Walked like a container otherwise. Its place in the preset: before
 * `figure` (a floated box carries the rendered-page figure class `floatright`, and the figure rule
 * would drop it whole for want of an image); after the rules of elements that never carry the
 * class (headings, paragraphs, lists).
 */
import { SECTIONS } from '../grammar.js';
import { hasClassIn } from '../rules.js';
import type { Rule } from './types.js';

export const notInAbstract: Rule = {
  name: 'not-in-abstract',
  breaks: true,
  test: (el) => hasClassIn(el, SECTIONS.notInAbstract),
  run: (el, walk, _out, depth) => walk.outsideAbstract(() => walk.children(el, depth)),
};
