/**
 * A Part's text with its links and citation markers. The engine gives the plain text, the links
 * (target and anchor text) and the citations separately; links are put back where their anchor
 * text occurs, in order, and citations follow the text as markers that jump to the reference
 * (their place in the text is not part of the Article).
 */
import type { Citation, Link } from '../../schema/article.js';
import { anchorId, esc, safeUrl } from '../html.js';
import type { RenderOptions } from './options.js';

/** `value` with each link's anchor text made a link, searched left to right; the rest escaped. */
export function linkify(value: string, links: readonly Link[] | undefined): string {
  if (links === undefined || links.length === 0) return esc(value);
  let out = '';
  let at = 0;
  for (const link of links) {
    const url = safeUrl(link.url);
    const text = link.text;
    if (url === undefined || text === undefined || text === '') continue;
    const found = value.indexOf(text, at);
    if (found < 0) continue;
    out += `${esc(value.slice(at, found))}<a href="${esc(url)}" rel="noopener noreferrer" target="_blank">${esc(text)}</a>`;
    at = found + text.length;
  }
  return out + esc(value.slice(at));
}

/** The citation markers, each a link to its reference in the references list (when anchors are on). */
export function citationMarkers(citations: readonly Citation[] | undefined, options: RenderOptions): string {
  if (citations === undefined || citations.length === 0) return '';
  const markers = citations.map((c) => {
    const text = esc(c.text === '' ? '[?]' : c.text);
    if (!options.anchors) return `<span class="cite">${text}</span>`;
    return `<a class="cite" href="#${anchorId('ref', c.identifier)}" aria-label="citation ${text}, go to reference">${text}</a>`;
  });
  return `<sup class="cites">${markers.join('')}</sup>`;
}

/** A Part's value with links, then its citations. */
export function richText(value: string | undefined, links: readonly Link[] | undefined, citations: readonly Citation[] | undefined, options: RenderOptions): string {
  return linkify(value ?? '', links) + citationMarkers(citations, options);
}
