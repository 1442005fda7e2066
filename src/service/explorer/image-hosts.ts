/**
 * Where the explorer may load images from. An Article's `content_url` is whatever the page said,
 * and a page anyone can paste (or edit on a wiki, or store) can point it at a tracking pixel that
 * tells its owner who looked at the article, from where, and when. So an image is shown inline
 * only from the wiki hosts of the article it belongs to — the wiki itself and Wikimedia's file
 * host, where its thumbnails live — and any other is a link the reader follows if they choose.
 *
 * Enforced twice: the renderer (src/explorer/render/outline.ts) decides per article with
 * `imageHostsOf`, and the page's Content-Security-Policy (assets.ts) allows `img-src` from the
 * Wikimedia wiki hosts of grammar/projects.json and nothing else, so markup that slips past the
 * renderer still loads nothing from elsewhere. Pure and small: the browser bundle imports it too.
 */
import projects from '../../../grammar/projects.json' with { type: 'json' };

/** Where Wikimedia wikis serve their files and thumbnails from (not a wiki host itself). */
export const WIKIMEDIA_FILE_HOST = 'upload.wikimedia.org';

/** `{lang}.wikipedia.org` → `.wikipedia.org`: a family's host after its language label. */
const FAMILY_SUFFIXES = projects.families.map((family) => family.host.replace('{lang}', ''));
const SPECIAL_HOSTS = new Set(projects.special.map((special) => special.host));
/** One DNS label, as a language subdomain is (`en`, `zh-min-nan`, `simple`). */
const LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A host of a wiki grammar/projects.json knows: a family member (`fr.wiktionary.org`) or a special wiki. */
export function isWikiHost(host: string): boolean {
  if (SPECIAL_HOSTS.has(host)) return true;
  return FAMILY_SUFFIXES.some((suffix) => host.endsWith(suffix) && LABEL.test(host.slice(0, -suffix.length)));
}

/** The CSP `img-src` sources for every wiki host and the file host, https only. */
export function wikiImageSources(): string[] {
  return [`https://${WIKIMEDIA_FILE_HOST}`, ...FAMILY_SUFFIXES.map((suffix) => `https://*${suffix}`), ...[...SPECIAL_HOSTS].map((host) => `https://${host}`)];
}

/**
 * The hosts an article's images may load from inline: its own wiki's and the file host, when the
 * article's URL is on a known wiki; none otherwise (the page's policy would refuse them anyway).
 */
export function imageHostsOf(articleUrl: string | undefined): ReadonlySet<string> {
  const host = hostOf(articleUrl);
  return host !== undefined && isWikiHost(host) ? new Set([host, WIKIMEDIA_FILE_HOST]) : new Set();
}

/** The host of an absolute https URL (protocol-relative allowed), lower-cased; undefined otherwise. */
export function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '' && parsed.port === '' ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}
