import { readHostPatterns, WIKI_HOSTS_META, type HostPatterns } from '../../service/explorer/image-hosts.js';

/** Typed lookups of the page's fixed elements: a missing one is a bug in index.html, said at once. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`index.html has no #${id}`);
  return el as T;
}

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}

let wikiHosts: HostPatterns | undefined;
/** The wiki hosts the server wrote into the page (the list its image policy allows), read once. */
export function pageWikiHosts(): HostPatterns {
  wikiHosts ??= readHostPatterns(document.querySelector(`meta[name="${WIKI_HOSTS_META}"]`)?.getAttribute('content'));
  return wikiHosts;
}
