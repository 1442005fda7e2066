/**
 * Article.references: each with its type and its text (links kept), its bibliographic metadata
 * as a small label/value list, and an id the citation markers jump to. Built as one string: an
 * article with 500 references is one `innerHTML` assignment, not 500 DOM operations.
 */
import type { Reference } from '../../schema/article.js';
import { anchorId, esc } from '../html.js';
import { linkify } from './inline.js';
import type { RenderOptions } from './options.js';

export function renderReferences(references: readonly Reference[], options: RenderOptions): string {
  if (references.length === 0) return '<p class="empty">No references.</p>';
  return `<ol class="references">${references.map((r) => renderReference(r, options)).join('')}</ol>`;
}

export function renderReference(reference: Reference, options: RenderOptions): string {
  const id = options.anchors ? ` id="${anchorId('ref', reference.identifier)}" tabindex="-1"` : '';
  const group = reference.group === null ? '' : ` <span class="ref-group">group ${esc(reference.group)}</span>`;
  const entries = Object.entries(reference.metadata);
  const metadata =
    entries.length === 0
      ? ''
      : `<dl class="metadata">${entries.map(([key, value]) => `<div><dt>${esc(key)}</dt><dd>${esc(value)}</dd></div>`).join('')}</dl>`;
  return (
    `<li class="reference"${id}><span class="ref-type type-${esc(reference.type.replace(/[^a-z0-9-]/gi, '_'))}">${esc(reference.type)}</span>${group} ` +
    `<span class="ref-id">${esc(reference.identifier)}</span>` +
    `<p class="ref-text">${linkify(reference.text.value, reference.text.links)}</p>${metadata}</li>`
  );
}
