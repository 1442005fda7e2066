/**
 * The categories and templates of a page, read from its Parsoid HTML, for the Enterprise Article
 * model's `categories` and `templates` when the article was not delivered as an Enterprise
 * envelope that lists them (a bare Parsoid page, a page fetched from a wiki's REST API).
 *
 * - A category is a `<link>` whose rel is one of grammar/parsoid.json `categoryLinkRels`
 *   (`<link rel="mw:PageProp/Category" href="./Category:Name#sort key">`), named by its href as
 *   the Enterprise API names it: the title with its namespace, as the wiki writes it
 *   ("Kategorie:Albert Einstein" on dewiki), spaces for underscores, without the sort key.
 * - A template is the target of a template part of a transclusion's data-mw (`transclusionTypeofs`,
 *   read by data-mw.ts): `template.target.href` ("./Template:Cite_web" → "Template:Cite web").
 *   A part without an href (a parser function such as {{#if:}}, a name built at expansion time)
 *   names no page and is left out.
 *
 * Each is listed once, in the order of its first mention. The HTML records only the calls written
 * on the page: templates that those templates call (and their modules and style pages), which the
 * wiki's own list includes, are not in it.
 *
 * A scan of htmlparser2's Tokenizer events, not the engine's tree: nothing here needs the tree.
 * It runs on the service's worker threads, once per stored revision.
 */
import { Tokenizer } from 'htmlparser2';
import type { TokenizerCallbacks } from 'htmlparser2';
import { readDataMw } from './data-mw.js';
import { CATEGORY_LINK_RELS, TRANSCLUSION_TYPEOFS } from './grammar.js';
import { siteFromUrl } from './site.js';

/** A category or template: its namespace-prefixed title and, when the page's wiki is known, its URL. */
export interface PageLink {
  name: string;
  url?: string | undefined;
}

export interface PageLinks {
  categories: PageLink[];
  templates: PageLink[];
}

export interface PageLinksOptions {
  /**
   * The wiki's article path ("https://en.wikipedia.org/wiki/") for pages without a `<base href>`
   * (Parsoid writes one; a body alone has none). Without either, links have no `url`.
   */
  base?: string | undefined;
}

export function readPageLinks(html: string, options: PageLinksOptions = {}): PageLinks {
  const scan = new LinkScan(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, scan);
  tokenizer.write(html);
  tokenizer.end();
  // The article path of the wiki the <base> names, as the engine resolves the page's links (site.ts).
  const articlePath = (scan.base === undefined ? undefined : siteFromUrl(scan.base)?.articleBase) ?? options.base;
  const links = (names: Map<string, true>): PageLink[] =>
    [...names.keys()].map((name) => (articlePath === undefined ? { name } : { name, url: articlePath + name.replace(/ /g, '_') }));
  return { categories: links(scan.categories), templates: links(scan.templates) };
}

/** The attributes the scan reads; the values of all others are never sliced out of the page. */
const READ_ATTRIBUTES = new Set(['href', 'rel', 'typeof', 'data-mw']);

/**
 * Start tags and the few attributes that name categories and templates, straight from htmlparser2's
 * Tokenizer: no open-element stack (the Parser's is quadratic in nesting depth, tree-builder.ts),
 * no tree, no text.
 */
class LinkScan implements TokenizerCallbacks {
  /** The first <base href> (HTML §4.2.3). */
  base: string | undefined;
  readonly categories = new Map<string, true>();
  readonly templates = new Map<string, true>();
  #tag = '';
  #attribs: Record<string, string> = {};
  #name = '';
  #value = '';
  #reading = false;

  constructor(private readonly html: string) {}

  onopentagname(start: number, end: number): void {
    this.#tag = this.html.slice(start, end).toLowerCase();
    this.#attribs = {};
  }

  onattribname(start: number, end: number): void {
    this.#name = this.html.slice(start, end).toLowerCase();
    this.#reading = READ_ATTRIBUTES.has(this.#name);
    this.#value = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.#reading) this.#value += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.#reading) this.#value += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    // The first of repeated attributes wins, as in the HTML spec.
    if (this.#reading && !Object.hasOwn(this.#attribs, this.#name)) this.#attribs[this.#name] = this.#value;
    this.#reading = false;
  }

  onopentagend(): void {
    this.#startTag();
  }

  onselfclosingtag(): void {
    this.#startTag();
  }

  #startTag(): void {
    const { href, rel, typeof: types, 'data-mw': dataMw } = this.#attribs;
    if (this.#tag === 'base') {
      this.base ??= href;
      return;
    }
    if (this.#tag === 'link' && href !== undefined && hasToken(rel, CATEGORY_LINK_RELS)) {
      const name = titleOfHref(href);
      if (name !== undefined) this.categories.set(name, true);
      return;
    }
    if (dataMw === undefined || !hasToken(types, TRANSCLUSION_TYPEOFS)) return;
    for (const template of readDataMw(dataMw)?.templates ?? []) {
      const name = template.target.href === undefined ? undefined : titleOfHref(template.target.href);
      if (name !== undefined) this.templates.set(name, true);
    }
  }

  // Nothing else of the page names a category or a template.
  onclosetag(): void {}
  ontext(): void {}
  ontextentity(): void {}
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}
}

function hasToken(value: string | undefined, tokens: ReadonlySet<string>): boolean {
  if (value === undefined) return false;
  for (const token of value.split(/\s+/)) if (tokens.has(token)) return true;
  return false;
}

/**
 * "./Category:Rock_music#Sort" → "Category:Rock music". Parsoid writes wiki links relative to the
 * article path and percent-encodes some characters; the name is the decoded title with spaces.
 */
function titleOfHref(href: string): string | undefined {
  let path = href.startsWith('./') ? href.slice(2) : href;
  const end = path.search(/[#?]/);
  if (end >= 0) path = path.slice(0, end);
  let title: string;
  try {
    title = decodeURIComponent(path);
  } catch {
    title = path;
  }
  title = title.replace(/_/g, ' ').trim();
  return title === '' ? undefined : title;
}
