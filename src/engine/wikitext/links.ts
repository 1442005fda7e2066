/**
 * Wiki link targets → absolute URLs, the way the HTML path writes them:
 * `[[mass–energy equivalence#Mass–velocity relationship]]` →
 * `https://en.wikipedia.org/wiki/Mass–energy_equivalence#Mass–velocity_relationship`
 * (spaces as underscores, first letter upper case, not percent-encoded). Links leaving the wiki
 * (`[[:fr:Paris]]`, `[[wikt:word]]`) go to that wiki; `[[fr:Paris]]` without the leading colon is
 * an interlanguage link, page metadata rather than content (grammar/wikitext.json `interwiki`).
 */
import { ARTICLE_PATH } from '../grammar.js';
import type { Site } from '../site.js';
import { DEFAULT_FAMILY, isCaseSensitiveHost, isLanguageCode, projectHost } from './grammar.js';
import { memoized } from '../memo.js';

export type LinkTarget = { kind: 'url'; url: string } | { kind: 'interlanguage' } | { kind: 'none' };

const NONE: LinkTarget = { kind: 'none' };
const INTERLANGUAGE: LinkTarget = { kind: 'interlanguage' };

/**
 * `inNamespace`: the parser recognised a namespace of this wiki (Help:, Category: …), so the
 * prefix is not an interwiki prefix.
 */
export function linkTarget(rawTarget: string, site: Site | undefined, language: string | undefined, inNamespace: boolean): LinkTarget {
  let target = rawTarget.trim();
  const colon = target.startsWith(':');
  if (colon) target = target.slice(1).trim();
  // A target built by a template or a parameter cannot be resolved without expanding it.
  if (target.length === 0 || target.includes('{{') || target.includes('\0')) return NONE;
  const sep = target.indexOf(':');
  if (!inNamespace && sep > 0) {
    const prefix = target.slice(0, sep).trim().toLowerCase();
    const rest = target.slice(sep + 1);
    const project = projectHost(prefix);
    if (project !== undefined) return urlOn(`https://${project.replace('{lang}', language ?? 'en')}${ARTICLE_PATH}`, rest);
    if (isLanguageCode(prefix)) {
      if (!colon) return INTERLANGUAGE;
      const family = site === undefined ? DEFAULT_FAMILY : site.origin.replace(/^https:\/\/[^.]+\./, '');
      return urlOn(`https://${prefix}.${family}${ARTICLE_PATH}`, rest);
    }
  }
  if (site === undefined) return NONE;
  return urlOn(site.articleBase, target);
}

/** Titles start upper case except on wikis grammar/projects.json marks `caseSensitive` (Wiktionary). */
function urlOn(base: string, target: string): LinkTarget {
  const hash = target.indexOf('#');
  let title = underscored(hash < 0 ? target : target.slice(0, hash));
  if (title.length === 0) return NONE;
  if (!caseSensitiveBase(base)) title = title.charAt(0).toUpperCase() + title.slice(1);
  const fragment = hash < 0 ? '' : underscored(target.slice(hash + 1));
  return { kind: 'url', url: base + title + (fragment.length > 0 ? `#${fragment}` : '') };
}

const caseSensitiveBases = new Map<string, boolean>();

/** isCaseSensitiveHost of a base's host, memoized: a page's links share one or two bases. */
function caseSensitiveBase(base: string): boolean {
  return memoized(caseSensitiveBases, 1000, base, baseIsCaseSensitive);
}
const baseIsCaseSensitive = (base: string): boolean => isCaseSensitiveHost(hostOf(base));

/** "https://en.wiktionary.org/wiki/" → "en.wiktionary.org". */
function hostOf(base: string): string {
  const start = base.indexOf('//') + 2;
  const end = base.indexOf('/', start);
  return base.slice(start, end < 0 ? undefined : end);
}

function underscored(s: string): string {
  return s.trim().replace(/[\s_]+/g, '_');
}

/** Page title as a URL path segment: "Albert Einstein" → "Albert_Einstein". */
export function titlePath(name: string): string {
  const t = underscored(name);
  return t.charAt(0).toUpperCase() + t.slice(1);
}
