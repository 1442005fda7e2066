/**
 * Where the explorer may load images from. An Article's `content_url` is whatever the page said,
 * and a page anyone can paste (or edit on a wiki, or store) can point it at a tracking pixel that
 * tells its owner who looked at the article, from where, and when. So an image is shown inline
 * only from the wiki hosts of the article it belongs to — the wiki itself and Wikimedia's file
 * host, where its thumbnails live — and any other is a link the reader follows if they choose.
 *
 * Enforced twice: the renderer (src/explorer/render/outline.ts) decides per article with
 * `imageHostsOf`, and the page's Content-Security-Policy (assets.ts) allows `img-src` from the
 * wiki hosts and nothing else, so markup that slips past the renderer still loads nothing from
 * elsewhere. Both use one list of host patterns, made from grammar/projects.json by the server
 * (`wikiHostPatterns`) and handed to the page in a `<meta>` it reads (`readHostPatterns`), so the
 * browser bundle carries no grammar. Pure: the browser bundle imports this module.
 */

/** Where Wikimedia wikis serve their files and thumbnails from (not a wiki host itself). */
export const WIKIMEDIA_FILE_HOST = 'upload.wikimedia.org';
/** The `<meta name>` of index.html that carries the patterns to the page. */
export const WIKI_HOSTS_META = 'wikistruct-wiki-hosts';

/** `*.wikipedia.org` (one language label, then the family's domain) or an exact host (`commons.wikimedia.org`). */
export type HostPatterns = readonly string[];

/** One DNS label, as a language subdomain is (`en`, `zh-min-nan`, `simple`). */
const LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The patterns of grammar/projects.json's families (`{lang}.wikipedia.org`) and special wikis. */
export function wikiHostPatterns(projects: { families: readonly { host: string }[]; special: readonly { host: string }[] }): string[] {
  return [...projects.families.map((family) => family.host.replace('{lang}', '*')), ...projects.special.map((special) => special.host)];
}

/** Whether `host` is a wiki host: an exact pattern, or one label before a `*.` pattern's domain. */
export function isWikiHost(patterns: HostPatterns, host: string): boolean {
  return patterns.some((pattern) => {
    if (!pattern.startsWith('*.')) return pattern === host;
    const domain = pattern.slice(1); // ".wikipedia.org"
    return host.endsWith(domain) && LABEL.test(host.slice(0, -domain.length));
  });
}

/** The CSP `img-src` sources: the file host and every wiki host, https only. */
export function imageSources(patterns: HostPatterns): string[] {
  return [`https://${WIKIMEDIA_FILE_HOST}`, ...patterns.map((pattern) => `https://${pattern}`)];
}

/**
 * The hosts an article's images may load from inline: its own wiki's and the file host, when the
 * article's URL is on a known wiki; none otherwise (the page's policy would refuse them anyway).
 */
export function imageHostsOf(patterns: HostPatterns, articleUrl: string | undefined): ReadonlySet<string> {
  const host = hostOf(articleUrl);
  return host !== undefined && isWikiHost(patterns, host) ? new Set([host, WIKIMEDIA_FILE_HOST]) : new Set();
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

/** The patterns as the `<meta>` carries them: space-separated. */
export function writeHostPatterns(patterns: HostPatterns): string {
  return patterns.join(' ');
}

export function readHostPatterns(content: string | null | undefined): string[] {
  return (content ?? '').split(' ').filter((pattern) => pattern !== '');
}
