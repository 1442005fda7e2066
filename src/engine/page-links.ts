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
 * A streaming scan with htmlparser2's Parser, not the engine's tree: nothing here needs the tree,
 * and the scan runs beside the Article's parse on the service's worker threads.
 */
import { Parser } from 'htmlparser2';
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
  let base: string | undefined;
  const categories = new Map<string, true>();
  const templates = new Map<string, true>();
  const parser = new Parser(
    {
      onopentag(tag, attribs) {
        if (tag === 'base') {
          // The first <base href> is the document's base URL (HTML §4.2.3).
          base ??= attribs['href'];
          return;
        }
        if (tag === 'link' && attribs['href'] !== undefined && hasToken(attribs['rel'], CATEGORY_LINK_RELS)) {
          const name = titleOfHref(attribs['href']);
          if (name !== undefined) categories.set(name, true);
          return;
        }
        if (attribs['data-mw'] === undefined || !hasToken(attribs['typeof'], TRANSCLUSION_TYPEOFS)) return;
        for (const template of readDataMw(attribs['data-mw'])?.templates ?? []) {
          const name = template.target.href === undefined ? undefined : titleOfHref(template.target.href);
          if (name !== undefined) templates.set(name, true);
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  // The article path of the wiki the <base> names, as the engine resolves the page's links (site.ts).
  const articlePath = (base === undefined ? undefined : siteFromUrl(base)?.articleBase) ?? options.base;
  const links = (names: Map<string, true>): PageLink[] =>
    [...names.keys()].map((name) => (articlePath === undefined ? { name } : { name, url: articlePath + name.replace(/ /g, '_') }));
  return { categories: links(categories), templates: links(templates) };
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
