/**
 * Where an article lives: its wiki's origin, project code and language, and how its relative
 * links become absolute https:// URLs.
 */
import { ARTICLE_PATH, PROJECTS } from './grammar.js';

export interface Site {
  /** e.g. "https://en.wikipedia.org" */
  origin: string;
  /** e.g. "https://en.wikipedia.org/wiki/" — what Parsoid's "./Title" hrefs are relative to. */
  articleBase: string;
  /** Project code (database name), e.g. "enwiki"; undefined for hosts outside the known families. */
  project?: string;
  /** Language subdomain turned into a language code, e.g. "en" for simple.wikipedia.org. */
  language?: string;
}

const familyPatterns = PROJECTS.families.map((f) => {
  const [, suffix] = f.host.split('{lang}');
  return { suffix: suffix ?? '', code: f.code };
});
const specialHosts = new Map(PROJECTS.special.map((s) => [s.host, s.code]));
const languageOverrides = new Map(PROJECTS.languageOverrides.map((o) => [o.subdomain, o.language]));

/** Project code for a wiki host name, e.g. "fr.wiktionary.org" → "frwiktionary". */
export function projectOfHost(host: string): { project: string; language?: string } | undefined {
  const special = specialHosts.get(host);
  if (special !== undefined) return { project: special };
  for (const { suffix, code } of familyPatterns) {
    if (host.endsWith(suffix) && host.length > suffix.length) {
      const sub = host.slice(0, host.length - suffix.length);
      if (sub.includes('.')) continue;
      const language = languageOverrides.get(sub) ?? sub;
      return { project: code.replace('{lang}', sub.replace(/-/g, '_')), language };
    }
  }
  return undefined;
}

/** Host name for a project code, e.g. "enwiki" → "en.wikipedia.org"; the inverse of projectOfHost. */
export function hostOfProject(project: string): string | undefined {
  for (const s of PROJECTS.special) if (s.code === project) return s.host;
  for (const f of PROJECTS.families) {
    const suffix = f.code.replace('{lang}', '');
    if (project.endsWith(suffix) && project.length > suffix.length) {
      const lang = project.slice(0, project.length - suffix.length).replace(/_/g, '-');
      if (/^[a-z][a-z0-9-]*$/.test(lang)) return f.host.replace('{lang}', lang);
    }
  }
  return undefined;
}

/** Builds a Site from any URL on the wiki (protocol-relative allowed), e.g. a `<base href>`. */
export function siteFromUrl(url: string): Site | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const origin = `https://${parsed.host}`;
  const site: Site = { origin, articleBase: origin + ARTICLE_PATH };
  const known = projectOfHost(parsed.hostname);
  if (known !== undefined) {
    site.project = known.project;
    if (known.language !== undefined) site.language = known.language;
  }
  return site;
}

/**
 * Absolute URL for an href found in the article. Parsoid writes wiki links as "./Title" relative
 * to the article base (Specs/HTML §Wiki links); rendered pages write "/wiki/Title". An external
 * link keeps the scheme it was written with: http://host is a different URL from https://host,
 * and not every host serves both. A protocol-relative "//host/x" (how wikis write links to
 * themselves and to upload.wikimedia.org) gets https, as a reader on the wiki would use.
 * The common cases avoid the URL parser: it dominates the cost on link-heavy pages.
 */
export function resolveHref(href: string, site: Site | undefined): string | undefined {
  if (href.length === 0) return undefined;
  const c0 = href.charCodeAt(0);
  if (href.startsWith('https://') || href.startsWith('http://')) return href;
  if (href.startsWith('//')) return `https:${href}`;
  if (site === undefined) return undefined;
  if (href.startsWith('./')) return site.articleBase + href.slice(2);
  if (c0 === 47 /* / */) return site.origin + href;
  if (c0 === 35 /* # */) return undefined;
  try {
    const url = new URL(href, site.articleBase);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

/** A link's fragment as the anchor it names (`#Caf%C3%A9` → `Café`); as written when it is no valid escape. */
export function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
