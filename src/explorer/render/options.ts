import { imageHostsOf, type HostPatterns } from '../../service/explorer/image-hosts.js';

/** How the renderers shape their output for the view that shows it. */
export interface RenderOptions {
  /**
   * Ids and in-page links (citation → reference, table part → table). On in the main view; off
   * in the side-by-side pane, which repeats the outline and must not repeat its ids.
   */
  anchors: boolean;
  /** Mark each Part that has a source hint with `data-src` and make it focusable (the side-by-side pane). */
  sources: boolean;
  /**
   * The hosts this article's images load from inline (`imageHostsOf`, src/service/explorer/
   * image-hosts.ts); an image anywhere else becomes a link the reader may follow. Empty: none.
   */
  imageHosts: ReadonlySet<string>;
}

const NO_HOSTS: ReadonlySet<string> = new Set();
export const MAIN_VIEW: RenderOptions = { anchors: true, sources: false, imageHosts: NO_HOSTS };
export const SOURCE_PANE: RenderOptions = { anchors: false, sources: true, imageHosts: NO_HOSTS };

/**
 * A view's options for one article: its images' allowed hosts, from the article's own URL when
 * that is on one of the wikis `wikiHosts` names (the page's list: views/dom.ts `pageWikiHosts`).
 */
export function forArticle(
  view: RenderOptions,
  article: { url?: string | undefined; is_part_of?: { url?: string | undefined } | undefined },
  wikiHosts: HostPatterns,
): RenderOptions {
  return { ...view, imageHosts: imageHostsOf(wikiHosts, article.url ?? article.is_part_of?.url) };
}
