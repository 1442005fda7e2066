/**
 * An element that is not a block (a link, `<b>`, `<span>`…) joins the run of inline nodes that
 * becomes the next implicit paragraph; rendered pages and Parsoid both leave text outside `<p>`
 * (e.g. after a list, or in a `<div>` of bare text). Every rule after this one sees blocks only.
 */
import { isFigure } from '../figure/html.js';
import type { Rule } from './types.js';
import { tagName } from '../dom.js';

/** Elements that start a new block (HTML's flow-content blocks, table parts, sectioning). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'body', 'html', 'caption',
  'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'summary',
]);

export const inlineRun: Rule = {
  name: 'inline',
  breaks: false,
  // A media element is a block even as a <span> wrapper's sibling (Parsoid's figure-inline is not: isFigure).
  test: (el) => !BLOCKS.has(tagName(el)) && !isFigure(el),
  run: (el, walk) => walk.inline(el),
};
