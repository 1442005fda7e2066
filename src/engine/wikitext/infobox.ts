/**
 * An infobox template → an `infobox` part: one section titled by the template's name parameter
 * (or the page title), one `field` per non-empty parameter, named by the parameter and valued by
 * its clean text. Layout and image parameters (grammar/wikitext.json `infobox.skipParams`) are not
 * fields. Templates are not expanded, so fields the template fetches from Wikidata are absent.
 */
import type { Part } from '../../schema/article.js';
import type { TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { INFOBOX_SKIP_PARAMS, INFOBOX_TITLE_PARAMS } from './grammar.js';
import { argText, render } from './render.js';
import type { Scope } from './scope.js';

/** "Template:Infobox_scientist" → "Infobox scientist". */
export function templateDisplayName(name: string): string {
  return name.replace(/^[^:]*:/, '').replace(/_/g, ' ').trim();
}

export function infoboxPart(t: TranscludeToken, scope: Scope, depth: number): Part {
  const fields: Part[] = [];
  for (const arg of t.getAllArgs()) {
    const name = arg.name.trim();
    if (name.length === 0 || INFOBOX_SKIP_PARAMS.has(name.toLowerCase())) continue;
    const r = render(scope, arg.lastChild.childNodes, {}, depth + 1);
    if (r.value.length === 0) continue;
    const field: Part = { type: 'field', name, value: r.value };
    if (r.links.length > 0) field.links = r.links;
    if (r.citations.length > 0) field.citations = r.citations;
    fields.push(field);
  }
  const section: Part = { type: 'section' };
  const title = infoboxTitle(t, scope);
  if (title !== undefined) section.name = title;
  if (fields.length > 0) section.has_parts = fields;
  return { name: templateDisplayName(t.name), type: 'infobox', has_parts: [section] };
}

function infoboxTitle(t: TranscludeToken, scope: Scope): string | undefined {
  for (const key of INFOBOX_TITLE_PARAMS) {
    const value = argText(scope, t, key, { collect: false });
    if (value.length > 0) return value;
  }
  return scope.title;
}
