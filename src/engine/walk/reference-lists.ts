/**
 * Reference lists and their wrappers (`ol.references`, Parsoid's `mw:Extension/references`,
 * grammar/citations.json `listWrappers`): noise as content, but their entries are the article's
 * references. Placed before `noise`, which would drop them unread.
 */
import type { Element } from '../dom.js';
import { tagName } from '../dom.js';
import { REFERENCE_LIST_WRAPPERS } from '../grammar.js';
import { readReferenceList, referenceListsIn } from '../reference/html.js';
import { hasClassIn, isNoise } from '../rules.js';
import type { Collector } from '../collector.js';
import type { Rule, Walk } from './types.js';

/** Every entry of every reference list in `el` (inclusive), into the collector. */
export function readReferencesIn(el: Element, walk: Walk, out: Collector): void {
  for (const list of referenceListsIn(el)) out.referenceEntries(readReferenceList(list, walk.ctx));
}

/** The lists themselves and their wrappers; only when noise (a plain `<ol>` is a list). */
function mayHoldReferences(el: Element): boolean {
  return tagName(el) === 'ol' || hasClassIn(el, REFERENCE_LIST_WRAPPERS);
}

export const referenceLists: Rule = {
  name: 'reference-lists',
  breaks: false,
  test: (el) => mayHoldReferences(el) && isNoise(el),
  run: (el, walk, out) => readReferencesIn(el, walk, out),
};
