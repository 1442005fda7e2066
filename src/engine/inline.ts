/**
 * Renders inline content to clean plain text plus the links in it: noise dropped, whitespace
 * collapsed, links resolved to absolute URLs. This is the innermost loop of the engine.
 */
import type { Citation, Image, Link } from '../schema/article.js';
import { imageOf } from './image.js';
import { CUT } from './cut.js';
import type { AnyNode, Element } from './dom.js';
import { attr, childNodes, findAll, findFirst, isElement, isText, rawText, someTokenIn, tagName, textOf } from './dom.js';
import { CITATION_MARKERS } from './grammar.js';
import type { Context } from './context.js';
import { MAX_DEPTH } from './context.js';
import { isContentLink } from './links.js';
import { isMath, texOf } from './math.js';
import { isNoise, isPronunciation } from './rules.js';
import { decodeFragment, resolveHref } from './site.js';
import { clean, readsAsExponent, TextRope } from './text.js';

export interface InlineOptions {
  /** Leave nested lists out (they become their own parts). */
  skipLists?: boolean;
  /** Leave nested tables out (they become table entries of their own). */
  skipTables?: boolean;
  /** Abstract rendering: pronunciation guides are cut out and marked with CUT. */
  abstract?: boolean;
  /**
   * Write a caret before a numeric superscript that follows a letter, digit or closing bracket
   * ("a^3 = b^2", "10^3", "kg/m^2", "6:7^7"), where gluing it on would read as another number
   * ("a3", "6:77"); ordinals ("1<sup>er</sup>", "19<sup>th</sup>") stay glued. On unless set to
   * false: one rule for paragraphs, lists, infobox values and table cells (docs/conformance.md).
   */
  markSuperscripts?: boolean;
  /**
   * Which images are icons whose alt text is read as text ("Gold medal – first place" in an
   * infobox field); unset, images add no text.
   */
  isIcon?: (img: Element) => boolean;
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

/**
 * The text so far (TextRope: appended pieces, its end kept apart so that the tests on how it ends
 * never flatten it), flattened once by `clean` at the end.
 */
class Collector extends TextRope {
  links: Link[] = [];
  citations: Citation[] = [];
  /** The text ends with a "[" right before a dropped element: a "]" right after it closes an empty pair. */
  private bracketBeforeDropped = false;
  constructor(
    readonly ctx: Context,
    readonly options: InlineOptions,
  ) {
    super();
  }

  node(node: AnyNode, depth: number): void {
    const bracket = this.bracketBeforeDropped;
    this.bracketBeforeDropped = false;
    if (isText(node)) {
      const data = textOf(node);
      // Brackets that held only dropped content go with it: a navbar's "[<a>edit</a>]" (an
      // interface link, noise) leaves no "[]".
      if (bracket && data.charCodeAt(0) === 93) {
        this.dropLast();
        this.append(data.slice(1));
      } else this.append(data);
      return;
    }
    if (!isElement(node)) return;
    this.element(node, depth);
  }

  element(el: Element, depth: number): void {
    if (isNoise(el)) {
      if (isCitationMarker(el)) {
        const citation = citationOf(el);
        if (citation !== undefined) this.citations.push(citation);
      }
      this.bracketBeforeDropped = this.last === 91; /* [ */
      return;
    }
    if (this.options.abstract === true && isPronunciation(el)) {
      this.append(CUT);
      return;
    }
    // A formula is read whole, before its children: they are hidden MathML and a fallback image,
    // and only their attributes carry the TeX (math.ts).
    if (isMath(el)) {
      const tex = texOf(el);
      if (tex !== undefined) this.append(` ${tex} `);
      return;
    }
    const name = tagName(el);
    if (this.options.skipLists === true && LISTS.has(name)) return;
    if (this.options.skipTables === true && name === 'table') return;
    if (depth > MAX_DEPTH) {
      this.append(` ${rawText(el)} `);
      return;
    }
    if (name === 'img') {
      this.icon(el);
      return;
    }
    const breaking = BREAKING.has(name);
    if (breaking) this.append(' ');
    if (name === 'sup' && this.options.markSuperscripts !== false && this.isExponent(el)) this.append('^');
    if (name === 'a') this.link(el, depth);
    else for (const child of childNodes(el)) this.node(child, depth + 1);
    if (breaking) this.append(' ');
  }

  /** A `<sup>` whose text, glued on, would read as part of the number or word before it. */
  private isExponent(sup: Element): boolean {
    return readsAsExponent(this.end(), rawText(sup));
  }

  private icon(img: Element): void {
    const alt = attr(img, 'alt')?.trim();
    if (this.options.isIcon === undefined || alt === undefined || alt.length === 0 || !this.options.isIcon(img)) return;
    this.append(` ${alt} `);
  }

  /** A link's text is collected apart (TextRope#apart), then appended: the link keeps it too. */
  link(a: Element, depth: number): void {
    const shown = this.apart(() => {
      for (const child of childNodes(a)) this.node(child, depth + 1);
    });
    this.append(shown);
    const href = attr(a, 'href');
    if (href === undefined || !isContentLink(a, href)) return;
    const url = resolveHref(href, this.ctx.site);
    if (url === undefined) return;
    const text = clean(shown);
    const link: Link = text.length > 0 ? { url, text } : { url };
    // A linked icon or thumbnail: the link carries the image it shows, as in the production replies.
    // Most links hold text only: searched only when there is an element to search.
    if (childNodes(a).some(isElement)) {
      const images: Image[] = [];
      for (const img of findAll(a, isImg)) {
        const image = imageOf(img, this.ctx);
        if (image !== undefined) images.push(image);
      }
      if (images.length > 0) link.images = images;
    }
    this.links.push(link);
  }
}

const isImg = (e: Element): boolean => tagName(e) === 'img';
const isLinkWithHref = (e: Element): boolean => tagName(e) === 'a' && attr(e, 'href') !== undefined;

/**
 * Parsoid marks in-text reference markers `sup[typeof~="mw:Extension/ref"]` (Specs/HTML §Cite);
 * rendered pages `sup.reference`. Both link to the list entry by fragment.
 */
export function isCitationMarker(el: Element): boolean {
  if (tagName(el) !== 'sup') return false;
  return someTokenIn(attr(el, 'typeof'), CITATION_MARKERS.typeofs) || someTokenIn(attr(el, 'class'), CITATION_MARKERS.classes);
}

function citationOf(sup: Element): Citation | undefined {
  const a = findFirst(sup, isLinkWithHref);
  const href = a === undefined ? undefined : attr(a, 'href');
  if (href === undefined) return undefined;
  const hash = href.indexOf('#');
  if (hash < 0 || hash === href.length - 1) return undefined;
  const identifier = decodeFragment(href.slice(hash + 1));
  const text = rawText(sup).replace(/\s+/g, ' ').trim();
  return { identifier, text };
}

export function inline(nodes: Element | readonly AnyNode[], ctx: Context, options: InlineOptions = {}, depth = 0): Inline {
  const c = new Collector(ctx, options);
  if (Array.isArray(nodes)) for (const n of nodes) c.node(n, depth);
  else for (const n of childNodes(nodes as Element)) c.node(n, depth);
  return { value: clean(c.text), links: c.links, citations: c.citations };
}
