/**
 * The side-by-side tab: the Article's parts on the left, the sanitised source page on the right
 * (a srcdoc iframe sandboxed without scripts), and the part under the pointer or the focus lit
 * in the other pane. The link is the engine's source hint: `source.element` on a Part is the
 * index of the element that produced it, which the sanitiser writes as `data-ws` on that element.
 */
import type { Article } from '../../schema/article.js';
import { renderInfoboxes } from '../render/infobox.js';
import { forArticle, SOURCE_PANE } from '../render/options.js';
import { renderOutline } from '../render/outline.js';
import { hintsOf } from '../source/hints.js';
import { htmlOf } from '../source/input.js';
import { sanitizeSource, sourceDocument, wikitextBody } from '../source/sanitize.js';
import { byId, pageWikiHosts } from './dom.js';

export interface SourceData {
  format: 'html' | 'wikitext';
  /** The page as given: HTML, envelope JSON text, or wikitext. */
  text: string;
  /** Its Article, with source hints when the text is HTML. */
  article: Article;
}

const LIT = 'lit';
/** The listeners of the source shown last, removed when another is shown. */
let wiring: AbortController | undefined;

export function showSource(data: SourceData): void {
  const pane = byId('source-outline');
  const frame = byId<HTMLIFrameElement>('source-frame');
  const note = byId('source-note');
  wiring?.abort();
  wiring = new AbortController();
  const { signal } = wiring;
  const hints = hintsOf(data.article);
  pane.innerHTML =
    `<h4>Sections</h4>${renderOutline(data.article.sections, forArticle(SOURCE_PANE, data.article, pageWikiHosts()))}` +
    (data.article.infoboxes.length === 0 ? '' : `<h4>Infoboxes</h4>${renderInfoboxes(data.article.infoboxes, SOURCE_PANE)}`);
  // Every section open: a part must be visible to be pointed at.
  for (const details of pane.querySelectorAll('details')) details.open = true;

  if (data.format === 'wikitext') {
    note.textContent = 'Wikitext source: the engine gives source positions for HTML only, so nothing is linked here.';
    frame.srcdoc = sourceDocument(wikitextBody(data.text), location.origin);
    return;
  }
  const sanitized = sanitizeSource(htmlOf(data.text), hints);
  note.textContent =
    `${sanitized.found} parts point into the source: point at or focus one, on either side. The page is shown without its scripts, styles and images, and its links lead nowhere.` +
    (sanitized.mismatched > 0 ? ` ${sanitized.mismatched} source hints did not match this page's elements and are not shown.` : '');
  frame.srcdoc = sourceDocument(sanitized.body, location.origin);
  frame.addEventListener('load', () => link(pane, frame, signal), { once: true, signal });
}

/** Wires the two panes to each other once the source document exists. */
function link(pane: HTMLElement, frame: HTMLIFrameElement, signal: AbortSignal): void {
  const doc = frame.contentDocument;
  if (doc === null) return;
  let lit: Element[] = [];
  const light = (index: string, from: 'parts' | 'source'): void => {
    for (const el of lit) el.classList.remove(LIT);
    const part = pane.querySelector(`[data-src="${CSS.escape(index)}"]`);
    const origin = doc.querySelector(`[data-ws="${CSS.escape(index)}"]`);
    lit = [part, origin].filter((el): el is Element => el !== null);
    for (const el of lit) el.classList.add(LIT);
    // Scroll only the other pane: the one under the pointer stays where the person is.
    if (from === 'parts' && origin !== null) scrollWithin(doc.scrollingElement ?? doc.documentElement, origin, doc.defaultView?.innerHeight ?? 0);
    if (from === 'source' && part !== null) scrollWithin(pane, part, pane.clientHeight);
  };
  const fromParts = (event: Event): void => {
    if (event instanceof MouseEvent && !moved(event)) return;
    const el = (event.target as Element).closest?.('[data-src]');
    const index = el?.getAttribute('data-src');
    if (index !== null && index !== undefined) light(index, 'parts');
  };
  pane.addEventListener('mouseover', fromParts, { signal });
  pane.addEventListener('focusin', fromParts, { signal });
  doc.addEventListener('mouseover', (event) => {
    if (!moved(event)) return;
    const el = (event.target as Element).closest?.('[data-ws]');
    const index = el?.getAttribute('data-ws');
    if (index !== null && index !== undefined) light(index, 'source');
  }, { signal });
}

/**
 * Whether the pointer itself moved. Scrolling a pane under a resting pointer also sends
 * `mouseover` (the element under it changed): answering that would undo the highlight the
 * scroll was made for, so events at the last position are not the person pointing.
 */
const last = new WeakMap<Document, { x: number; y: number }>();
function moved(event: MouseEvent): boolean {
  const doc = (event.target as Node).ownerDocument;
  if (doc === null) return true;
  const before = last.get(doc);
  last.set(doc, { x: event.screenX, y: event.screenY });
  return before === undefined || before.x !== event.screenX || before.y !== event.screenY;
}

/** Brings `el` into view inside `container` only (scrollIntoView would also move the page). */
function scrollWithin(container: Element, el: Element, viewHeight: number): void {
  const box = el.getBoundingClientRect();
  const frame = container === el.ownerDocument.scrollingElement ? { top: 0 } : container.getBoundingClientRect();
  const top = box.top - frame.top;
  if (top >= 0 && top + Math.min(box.height, viewHeight / 2) <= viewHeight) return;
  container.scrollTop += top - viewHeight / 3;
}
