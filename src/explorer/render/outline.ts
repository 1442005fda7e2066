/**
 * The section tree as a collapsible outline: one `<details>` per section (the lead open), and
 * inside it the section's blocks in order — paragraphs, lists, images, table parts — and its
 * subsections. Keyboard and screen readers get `<details>`/`<summary>` for free.
 */
import type { Image, PartType } from '../../schema/article.js';
import type { SourcedPart } from '../../engine/source-positions.js';
import { hostOf } from '../../service/explorer/image-hosts.js';
import { anchorId, esc, safeUrl } from '../html.js';
import { confidenceBadge } from './badge.js';
import { richText } from './inline.js';
import type { RenderOptions } from './options.js';

/** The lead's name in the Article; shown as what it is. */
const LEAD = 'abstract';

export function renderOutline(sections: readonly SourcedPart[], options: RenderOptions): string {
  if (sections.length === 0) return '<p class="empty">No sections.</p>';
  return `<div class="outline">${sections.map((s, i) => renderSection(s, options, i === 0)).join('')}</div>`;
}

function renderSection(section: SourcedPart, options: RenderOptions, first: boolean): string {
  const lead = first && section.name === LEAD;
  const parts = section.has_parts ?? [];
  const blocks = parts.filter((p) => p.type !== 'section').length;
  const subsections = parts.length - blocks;
  const counts = [blocks > 0 || subsections === 0 ? plural(blocks, 'block') : '', subsections > 0 ? plural(subsections, 'subsection') : ''].filter((s) => s !== '').join(', ');
  const name = lead ? 'Lead' : section.name ?? '(untitled section)';
  return (
    `<details class="section"${lead ? ' open' : ''}>` +
    // On the summary, which is focusable already: a section's source is its heading.
    `<summary${source(section, options, false)}><span class="section-name">${esc(name)}</span> <span class="count">${counts}</span></summary>` +
    `<div class="section-body">${parts.map((p) => renderPart(p, options)).join('')}</div></details>`
  );
}

/** One Part of a section, by type. */
export function renderPart(part: SourcedPart, options: RenderOptions): string {
  const type: PartType = part.type;
  switch (type) {
    case 'section':
      return renderSection(part, options, false);
    case 'paragraph':
      return `<p class="part paragraph"${source(part, options)}>${richText(part.value, part.links, part.citations, options)}</p>`;
    case 'list':
      return `<ul class="part list"${source(part, options)}>${(part.has_parts ?? []).map((item) => renderListItem(item, options)).join('')}</ul>`;
    case 'list_item':
      return `<ul class="part list">${renderListItem(part, options)}</ul>`;
    case 'image':
      return renderImage(part, options);
    case 'table':
      return renderTablePart(part, options);
    case 'formula':
      // TeX source, shown as written: the explorer renders no math.
      return `<pre class="part formula"${source(part, options)}><code>${esc(part.value ?? '')}</code></pre>`;
    case 'infobox':
    case 'field':
      // Not placed in sections by the engine (infoboxes have their own list); shown plainly if met.
      return `<p class="part"${source(part, options)}><b>${esc(part.name ?? type)}</b> ${richText(part.value, part.links, part.citations, options)}</p>`;
    default: {
      const never: never = type;
      return `<p class="part">${esc(String(never))}</p>`;
    }
  }
}

function renderListItem(item: SourcedPart, options: RenderOptions): string {
  const nested = (item.has_parts ?? []).map((p) => renderPart(p, options)).join('');
  return `<li>${richText(item.value, item.links, item.citations, options)}${nested}</li>`;
}

function renderImage(part: SourcedPart, options: RenderOptions): string {
  const images = part.images ?? [];
  const caption = part.value ?? images[0]?.caption ?? images[0]?.alternative_text ?? '';
  const thumbs = images.map((image) => thumbnail(image, caption, options)).join('');
  return (
    `<figure class="part image"${source(part, options)}>${thumbs || '<span class="no-thumb">[image]</span>'}` +
    `<figcaption>${caption === '' ? '<i>no caption</i>' : richText(caption, part.links, part.citations, options)}</figcaption></figure>`
  );
}

/**
 * A thumbnail from `content_url` (lazy: an outline of hundreds of images loads what is seen).
 * Where the image host is unreachable the view marks the figure and the caption stands alone.
 * Only from the article's own wiki hosts (`options.imageHosts`): from anywhere else an image could
 * be a tracking pixel, so it is a link, loaded (in a tab of its own) only if the reader follows it.
 */
function thumbnail(image: Image, caption: string, options: RenderOptions): string {
  const url = safeUrl(image.content_url);
  if (url === undefined) return '<span class="no-thumb">[image]</span>';
  const host = hostOf(url);
  if (host === undefined || !options.imageHosts.has(host)) {
    return `<a class="remote-image" href="${esc(url)}" rel="noopener noreferrer" referrerpolicy="no-referrer" target="_blank" title="Not loaded: it is not on this article's wiki">[image from ${esc(host ?? 'another site')}: open]</a>`;
  }
  const size = (image.width === undefined ? '' : ` width="${image.width}"`) + (image.height === undefined ? '' : ` height="${image.height}"`);
  return `<img class="thumb" src="${esc(url)}" alt="${esc(image.alternative_text ?? caption)}" loading="lazy" decoding="async" referrerpolicy="no-referrer"${size}>`;
}

function renderTablePart(part: SourcedPart, options: RenderOptions): string {
  const refs = (part.table_references ?? []).map((ref) => {
    const label = esc(ref.identifier);
    const link = options.anchors ? `<a class="table-link" href="#${anchorId('table', ref.identifier)}">${label}</a>` : label;
    return `${link} ${confidenceBadge(ref.confidence_score)}`;
  });
  const caption = part.value === undefined || part.value === '' ? '' : ` <span class="caption">${esc(part.value)}</span>`;
  return `<p class="part table-part"${source(part, options)}><span class="kind">Table</span> ${refs.join(' ')}${caption}</p>`;
}

/** `data-src` (the source element's index) on hinted Parts in the side-by-side pane. */
export function source(part: SourcedPart, options: RenderOptions, focusable = true): string {
  if (!options.sources || part.source === undefined) return '';
  return ` data-src="${part.source.element}"${focusable ? ' tabindex="0"' : ''}`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
