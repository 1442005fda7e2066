/**
 * A section is boilerplate by what it holds, whatever its title: only reference lists (or what
 * stands for them), only lists of external links, only navigation boxes (grammar/sections.json
 * `navigationBlocks`, `externalLinks`). So a wiki whose titles nobody listed ("參考文獻", "مراجع")
 * still loses its reference and link sections, as the titled ones (`boilerplate`) go.
 *
 * What counts as holding nothing else: subsection headings (structure, not text), whitespace,
 * noise that is not navigation (styles, maintenance boxes). A section with none of the three
 * kinds at all (an empty section, one holding only a hatnote or a "section empty" box) is not
 * decided by content: its heading stays. A plain list of citations is content here: a reading list
 * or a list of the subject's works, and only a title says which (one wrapped in {{Refbegin}} is
 * noise already, and counts as reference material).
 */
import type { AnyNode, Element } from './dom.js';
import { attr, childNodes, isElement, isText, rawText, someToken, tagName } from './dom.js';
import { MAX_DEPTH } from './context.js';
import { REFERENCE_LIST_WRAPPERS, SECTIONS } from './grammar.js';
import { isReferenceList, referenceListsIn } from './reference/html.js';
import { hasClassIn, isNoise } from './rules.js';

type Verdict = 'content' | 'boilerplate' | 'neutral';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks whose verdict is their children's: wrappers around lists and boxes. */
const WRAPPERS = new Set(['div', 'section', 'p', 'center', 'span']);
/** Elements that hold no content of their own. */
const EMPTY = new Set(['br', 'hr', 'wbr']);

/** Whether `nodes` (a section's children, or a flat page's run up to the next heading) hold only boilerplate, and some. */
export function holdsOnlyBoilerplate(nodes: Iterable<AnyNode>): boolean {
  let found = false;
  for (const node of nodes) {
    const verdict = verdictOf(node, 0);
    if (verdict === 'content') return false;
    if (verdict === 'boilerplate') found = true;
  }
  return found;
}

function verdictOf(node: AnyNode, depth: number): Verdict {
  if (!isElement(node)) return isText(node) && rawText(node).trim().length > 0 ? 'content' : 'neutral';
  if (isReferenceMaterial(node)) return 'boilerplate';
  if (hasClassIn(node, SECTIONS.navigationBlocks)) return 'boilerplate';
  if (isNoise(node) || EMPTY.has(tagName(node))) return 'neutral';
  if (HEADINGS.has(tagName(node)) || hasClassIn(node, SECTIONS.headingWrappers)) return 'neutral';
  if (tagName(node) === 'ul' || tagName(node) === 'ol') return isExternalLinkList(node) ? 'boilerplate' : 'content';
  if (!WRAPPERS.has(tagName(node)) || depth > MAX_DEPTH) return 'content';
  let verdict: Verdict = 'neutral';
  for (const child of childNodes(node)) {
    const v = verdictOf(child, depth + 1);
    if (v === 'content') return 'content';
    if (v === 'boilerplate') verdict = 'boilerplate';
  }
  return verdict;
}

/**
 * A reference list, or what stands for one: a wrapper that is noise (grammar/citations.json
 * `listWrappers`: {{Reflist}}, Parsoid's references wrapper, mobile-html's empty placeholder, a
 * {{Refbegin}} bibliography, whose content is noise already) or noise holding a list.
 */
function isReferenceMaterial(el: Element): boolean {
  if (isReferenceList(el)) return true;
  if (!isNoise(el)) return false;
  return hasClassIn(el, REFERENCE_LIST_WRAPPERS) || referenceListsIn(el).length > 0;
}

/**
 * A list of links out: every item opens with an external link (grammar/sections.json
 * `externalLinks`) and none cites a work. "Official website", "Works by X at Project Gutenberg",
 * "X on Nobelprize.org": "External links" in whatever language. A list of works or recordings
 * whose items end with a "listen online" link ("[[Léo Ferré]], Les Anarchistes, 1969, écouter en
 * ligne") is content: its items open with their own text or a wiki link.
 */
function isExternalLinkList(list: Element): boolean {
  let items = 0;
  for (const li of childNodes(list)) {
    if (!isElement(li) || tagName(li) !== 'li' || isNoise(li)) continue;
    items++;
    if (holdsCitation(li, 0)) return false;
    const first = firstLink(li, { letters: 0 }, 0);
    if (first === undefined || first === null || !isExternal(first)) return false;
  }
  return items > 0;
}

const isExternalMark = (token: string): boolean => SECTIONS.externalLinks.has(token);
const isExternal = (a: Element): boolean => someToken(attr(a, 'rel'), isExternalMark) || someToken(attr(a, 'class'), isExternalMark);

/**
 * The first link with text in `el`; null when words come before it. A few letters may: frwiki
 * marks a link's language before it ("(en) Site officiel").
 */
function firstLink(el: Element, before: { letters: number }, depth: number): Element | undefined | null {
  for (const c of childNodes(el)) {
    if (!isElement(c)) {
      if (isText(c)) before.letters += rawText(c).replace(/[^\p{L}\p{N}]/gu, '').length;
      if (before.letters > LEADING_LETTERS) return null;
      continue;
    }
    if (isNoise(c)) continue;
    if (tagName(c) === 'a' && rawText(c).trim().length > 0) return c;
    if (depth > MAX_DEPTH) return null;
    const inner = firstLink(c, before, depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Letters allowed before an external-link item's link: a language mark such as "(en)". */
const LEADING_LETTERS = 3;

function holdsCitation(el: Element, depth: number): boolean {
  if (tagName(el) === 'cite') return true;
  if (depth > MAX_DEPTH) return false;
  return childNodes(el).some((c) => isElement(c) && holdsCitation(c, depth + 1));
}
