/**
 * Wiki link targets → absolute URLs, the way the HTML path writes them:
 * `[[mass–energy equivalence#Mass–velocity relationship]]` →
 * `https://en.wikipedia.org/wiki/Mass–energy_equivalence#Mass–velocity_relationship`
 * (spaces as underscores, first letter upper case, not percent-encoded).
 */
import type { Site } from '../site.js';

export function wikiUrl(rawTarget: string, site: Site | undefined): string | undefined {
  if (site === undefined) return undefined;
  let target = rawTarget.trim();
  if (target.startsWith(':')) target = target.slice(1).trim();
  // A target built by a template or a parameter cannot be resolved without expanding it.
  if (target.length === 0 || target.includes('{{') || target.includes('\0')) return undefined;
  const hash = target.indexOf('#');
  const title = underscored(hash < 0 ? target : target.slice(0, hash));
  if (title.length === 0) return undefined;
  const fragment = hash < 0 ? '' : `#${underscored(target.slice(hash + 1))}`;
  return site.articleBase + title.charAt(0).toUpperCase() + title.slice(1) + (fragment === '#' ? '' : fragment);
}

function underscored(s: string): string {
  return s.trim().replace(/[\s_]+/g, '_');
}

/** Page title as a URL path segment: "Albert Einstein" → "Albert_Einstein". */
export function titlePath(name: string): string {
  const t = underscored(name);
  return t.charAt(0).toUpperCase() + t.slice(1);
}
