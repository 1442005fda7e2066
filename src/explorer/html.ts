/**
 * Escaping for the string renderers. Everything shown comes from an Article, which comes from
 * pages anyone can write: every text and attribute goes through here, never raw into HTML.
 */
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or a double- or single-quoted attribute value. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The URL when it is absolute http(s), else undefined: an Article's links and image URLs are
 * data, and `javascript:` or `data:` in one must not become something to click or load.
 */
export function safeUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const text = url.startsWith('//') ? `https:${url}` : url;
  return /^https?:\/\/[^\s/]/i.test(text) ? text : undefined;
}

/** A fragment id for an Article identifier (reference or table), safe in `id` and `href="#…"`. */
export function anchorId(prefix: string, identifier: string): string {
  return `${prefix}-${identifier.replace(/[^A-Za-z0-9_.:-]/g, (c) => `~${c.codePointAt(0)!.toString(16)}~`)}`;
}
