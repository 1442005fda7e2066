/**
 * Renders inline content to clean plain text plus the links in it: noise dropped, whitespace
 * collapsed, links resolved to absolute URLs. This is the innermost loop of the engine.
 */
import type { Citation, Link } from '../schema/article.js';
import type { AnyNode, Element } from './dom.js';
import { findFirst, hasClass, hasToken, isElement, rawText } from './dom.js';
import type { Context } from './context.js';
import { MAX_DEPTH } from './context.js';
import { isNoise, isPronunciation } from './rules.js';
import { resolveHref } from './site.js';

/** Marks where a pronunciation guide was cut out of abstract text (see abstract.ts). */
export const CUT = '\u0001';

export interface InlineOptions {
  /** Leave nested lists out (they become their own parts). */
  skipLists?: boolean;
  /** Leave nested tables out (they become table entries of their own). */
  skipTables?: boolean;
  /** Abstract rendering: pronunciation guides are cut out and marked with CUT. */
  abstract?: boolean;
}

export interface Inline {
  value: string;
  links: Link[];
  /** Reference markers met in the content, in order; their text never enters `value`. */
  citations: Citation[];
}

const LISTS = new Set(['ul', 'ol', 'dl']);
/** Elements whose boundaries separate words even when the markup has no whitespace. */
const BREAKING = new Set(['br', 'p', 'div', 'li', 'dd', 'dt', 'tr', 'td', 'th', 'table', 'blockquote', 'figcaption', 'hr']);

class Collector {
  text = '';
  links: Link[] = [];
  citations: Citation[] = [];
  constructor(
    readonly ctx: Context,
    readonly options: InlineOptions,
  ) {}

  node(node: AnyNode, depth: number): void {
    if (node.type === 'text') {
      this.text += (node as { data: string }).data;
      return;
    }
    if (!isElement(node)) return;
    this.element(node, depth);
  }

  element(el: Element, depth: number): void {
    // Math hides its MathML with display:none and shows an image, so it is read before noise.
    if (hasClass(el, 'mwe-math-element')) {
      this.text += mathText(el);
      return;
    }
    if (isNoise(el)) {
      if (isCitationMarker(el)) {
        const citation = citationOf(el);
        if (citation !== undefined) this.citations.push(citation);
      }
      return;
    }
    if (this.options.abstract === true && isPronunciation(el)) {
      this.text += CUT;
      return;
    }
    const name = el.name;
    if (this.options.skipLists === true && LISTS.has(name)) return;
    if (this.options.skipTables === true && name === 'table') return;
    if (depth > MAX_DEPTH) {
      this.text += ` ${rawText(el)} `;
      return;
    }
    const breaking = BREAKING.has(name);
    if (breaking) this.text += ' ';
    const start = this.text.length;
    for (const child of el.children) this.node(child, depth + 1);
    if (name === 'a') this.link(el, start);
    if (breaking) this.text += ' ';
  }

  link(a: Element, start: number): void {
    const href = a.attribs.href;
    if (href === undefined) return;
    const url = resolveHref(href, this.ctx.site);
    if (url === undefined) return;
    const text = clean(this.text.slice(start));
    this.links.push(text.length > 0 ? { url, text } : { url });
  }
}

/**
 * Math is rendered as hidden MathML plus a fallback image; both carry the TeX source
 * (`alttext` on <math>, `alt` on the image), which is the only readable plain-text form.
 */
function mathText(wrapper: Element): string {
  const math = findFirst(wrapper, (e) => e.name === 'math' || e.name === 'img');
  const tex = math === undefined ? undefined : (math.attribs.alttext ?? math.attribs.alt);
  if (tex === undefined) return '';
  return ` ${tex.replace(/^\{\\(?:displaystyle|textstyle)\s*/, '').replace(/\}$/, '').trim()} `;
}

const SPACES = /\s+/g;
const SPACE_BEFORE_PUNCT = / ([,.;:!?%)\]])/g;
const SPACE_AFTER_OPEN = /([(\[]) /g;

/**
 * Collapses whitespace and removes the spaces that element boundaries leave before punctuation
 * ("word ." → "word."), a known flaw of the reference parser.
 */
export function clean(text: string): string {
  return text.replace(SPACES, ' ').replace(SPACE_BEFORE_PUNCT, '$1').replace(SPACE_AFTER_OPEN, '$1').trim();
}

/**
 * Parsoid marks in-text reference markers `sup[typeof~="mw:Extension/ref"]` (Specs/HTML §Cite);
 * rendered pages `sup.reference`. Both link to the list entry by fragment.
 */
export function isCitationMarker(el: Element): boolean {
  if (el.name !== 'sup') return false;
  return hasToken(el.attribs.typeof, 'mw:Extension/ref') || hasClass(el, 'reference');
}

function citationOf(sup: Element): Citation | undefined {
  const a = findFirst(sup, (e) => e.name === 'a' && e.attribs.href !== undefined);
  const href = a?.attribs.href;
  if (href === undefined) return undefined;
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return undefined;
  let identifier = href.slice(hash + 1);
  try {
    identifier = decodeURIComponent(identifier);
  } catch {
    // keep the fragment as written
  }
  const text = rawText(sup).replace(/\s+/g, ' ').trim();
  return { identifier, text };
}

export function inline(nodes: Element | readonly AnyNode[], ctx: Context, options: InlineOptions = {}, depth = 0): Inline {
  const c = new Collector(ctx, options);
  if (Array.isArray(nodes)) for (const n of nodes) c.node(n, depth);
  else for (const n of (nodes as Element).children) c.node(n, depth);
  return { value: clean(c.text), links: c.links, citations: c.citations };
}
