/**
 * Infoboxes as label/value grids: one table per infobox, captioned with its template name; each
 * of its sections (one per header row) a row spanning both columns, each field a row of label
 * and value. A field the engine split into items keeps them as a list.
 */
import type { SourcedPart } from '../../engine/source-positions.js';
import { esc } from '../html.js';
import { richText } from './inline.js';
import type { RenderOptions } from './options.js';
import { source } from './outline.js';

export function renderInfoboxes(infoboxes: readonly SourcedPart[], options: RenderOptions): string {
  if (infoboxes.length === 0) return '<p class="empty">No infoboxes.</p>';
  return infoboxes.map((box) => renderInfobox(box, options)).join('');
}

function renderInfobox(box: SourcedPart, options: RenderOptions): string {
  const rows = (box.has_parts ?? []).map((part) => (part.type === 'field' ? field(part, options) : group(part, options))).join('');
  return (
    `<table class="infobox"${source(box, options)}><caption>${esc(box.name ?? 'Infobox')}</caption>` +
    `<tbody>${rows || '<tr><td colspan="2" class="empty">No fields.</td></tr>'}</tbody></table>`
  );
}

/** A section of the infobox: its name as a header row, then its fields (and anything nested). */
function group(section: SourcedPart, options: RenderOptions): string {
  const head = section.name === undefined || section.name === '' ? '' : `<tr><th colspan="2" scope="colgroup" class="group">${esc(section.name)}</th></tr>`;
  const rows = (section.has_parts ?? []).map((part) => (part.type === 'field' ? field(part, options) : group(part, options))).join('');
  return head + rows;
}

function field(part: SourcedPart, options: RenderOptions): string {
  const items = (part.has_parts ?? []).filter((p) => p.type === 'list_item');
  const value =
    items.length > 0
      ? `<ul>${items.map((item) => `<li>${richText(item.value, item.links ?? part.links, item.citations, options)}</li>`).join('')}</ul>${richText('', undefined, part.citations, options)}`
      : richText(part.value, part.links, part.citations, options);
  return `<tr><th scope="row">${esc(part.name ?? '')}</th><td>${value}</td></tr>`;
}
