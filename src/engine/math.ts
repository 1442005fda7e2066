/**
 * Math, one rule everywhere: a displayed formula is a `formula` Part whose value is its TeX; an
 * inline formula is its TeX in the running text. The wikitext front door follows the same rule
 * (src/engine/wikitext), so both give the same Part for the same `<math>`.
 *
 * The Math extension renders a formula as a wrapper (grammar/math.json `elementClasses`) holding
 * hidden MathML and a fallback image. Both carry the TeX: the MathML's `alttext`, the image's `alt`.
 * The extension wraps it in a style command (`{\displaystyle …}`), a rendering hint that is not
 * what the author wrote, so it is taken off.
 *
 * A formula is displayed when its markup says so (`<math display="block">`, the display classes)
 * or when it stands alone in a definition-list item: wikitext's `:<math>…</math>`, the usual way to
 * set a formula on its own line, renders as `<dl><dd>` around an inline formula. Such a `<dl>` is
 * the formula, not a list.
 */
import type { Part } from '../schema/article.js';
import type { Element } from './dom.js';
import { attr, childNodes, findFirst, hasAnyToken, isElement, isText, tagName, textOf } from './dom.js';
import { MATH } from './grammar.js';
import { hasClassIn, isNoise } from './rules.js';

/** Items of a definition list: a formula alone in one is displayed. */
const DEFINITION_ITEMS = new Set(['dd', 'dt']);
/** `::<math>` nests one definition list per colon; deeper than this is not a formula layout. */
const MAX_INDENT = 8;

/** Few classes, so each is looked for in place: no token is sliced out for the many elements that are no formula. */
const ELEMENT_CLASSES = [...MATH.elementClasses];

/** The wrapper of a rendered formula, inline or displayed. Asked of every element of running text. */
export function isMath(el: Element): boolean {
  return hasAnyToken(attr(el, 'class'), ELEMENT_CLASSES);
}

/**
 * A formula displayed as its own block (not inside a line of text): a math wrapper marked as
 * displayed, or a `<dl>`/`<dd>` whose only content is one formula.
 */
export function isBlockFormula(el: Element): boolean {
  if (isMath(el)) return isDisplayed(el);
  return loneFormula(el, 0) !== undefined;
}

/** The `formula` Part of a displayed formula (see isBlockFormula), or undefined when it carries no TeX. */
export function formulaPart(el: Element): Part | undefined {
  const math = isMath(el) ? el : loneFormula(el, 0);
  if (math === undefined) return undefined;
  const value = texOf(math);
  return value === undefined ? undefined : { type: 'formula', value };
}

/**
 * The formula a definition list or item consists of, or undefined when it holds anything else:
 * text other than whitespace, a second formula, several items. Noise (hidden markup, comments'
 * leftovers) does not count as content.
 */
export function loneFormula(el: Element, indent: number): Element | undefined {
  if (indent > MAX_INDENT) return undefined;
  const isList = tagName(el) === 'dl';
  if (!isList && !DEFINITION_ITEMS.has(tagName(el))) return undefined;
  let found: Element | undefined;
  for (const child of childNodes(el)) {
    if (isText(child)) {
      if (textOf(child).trim().length > 0) return undefined;
      continue;
    }
    if (!isElement(child) || isNoise(child)) continue;
    if (found !== undefined) return undefined;
    if (isList) found = DEFINITION_ITEMS.has(tagName(child)) ? loneFormula(child, indent) : undefined;
    else found = isMath(child) ? child : tagName(child) === 'dl' ? loneFormula(child, indent + 1) : undefined;
    if (found === undefined) return undefined;
  }
  return found;
}

/** Marked as displayed by the extension: a display class on the wrapper or inside it, or `<math display="block">`. */
function isDisplayed(math: Element): boolean {
  if (hasClassIn(math, MATH.blockClasses)) return true;
  return findFirst(math, (e) => hasClassIn(e, MATH.blockClasses) || (tagName(e) === 'math' && attr(e, 'display') === MATH.displayBlock)) !== undefined;
}

/** The formula's TeX as its author wrote it, from the MathML `alttext` or else the image `alt`. */
export function texOf(math: Element): string | undefined {
  const mathml = findFirst(math, (e) => tagName(e) === 'math' && attr(e, 'alttext') !== undefined);
  const raw = (mathml === undefined ? undefined : attr(mathml, 'alttext')) ?? altOf(findFirst(math, (e) => tagName(e) === 'img' && attr(e, 'alt') !== undefined));
  if (raw === undefined) return undefined;
  const tex = unwrapTex(raw);
  return tex.length > 0 ? tex : undefined;
}

const altOf = (img: Element | undefined): string | undefined => (img === undefined ? undefined : attr(img, 'alt'));

/**
 * `{\displaystyle E=mc^{2}}` → `E=mc^{2}`. The wrapper is taken off only when its opening brace
 * closes at the very end: `{\displaystyle a}+{b}` is two groups, and stays as written.
 */
export function unwrapTex(raw: string): string {
  const tex = raw.trim();
  for (const opening of MATH.wrapperOpenings) {
    if (!tex.startsWith(opening)) continue;
    // `{\displaystyles…}` would be another command.
    if (/[A-Za-z]/.test(tex.charAt(opening.length))) continue;
    if (closingBrace(tex) !== tex.length - 1) continue;
    return tex.slice(opening.length, -1).trim();
  }
  return tex;
}

/** Index of the brace closing the one at index 0, skipping escaped braces (`\{`, `\}`); -1 if none. */
function closingBrace(tex: string): number {
  let open = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex.charCodeAt(i);
    if (c === 92 /* \ */) {
      i++;
      continue;
    }
    if (c === 123 /* { */) open++;
    else if (c === 125 /* } */ && --open === 0) return i;
  }
  return -1;
}
