/**
 * The page's short description ({{Short description}}, grammar/sections.json `shortDescription`):
 * hidden text, so dropped from content like noise, but collected as the description. Placed
 * before `noise`, which would drop it unread.
 */
import { rawText } from '../dom.js';
import { SECTIONS } from '../grammar.js';
import { hasClassIn } from '../rules.js';
import type { Rule } from './types.js';

export const shortDescription: Rule = {
  name: 'short-description',
  breaks: false,
  test: (el) => hasClassIn(el, SECTIONS.shortDescription),
  run(el, _walk, out) {
    out.description(rawText(el).replace(/\s+/g, ' ').trim());
  },
};
