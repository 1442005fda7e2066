/**
 * An infobox template → an `infobox` part: one section titled by the template's name parameter
 * (or the page title), one `field` per non-empty parameter, named by the parameter and valued by
 * its clean text. Layout and image parameters (grammar/wikitext.json `infobox.skipParams`) are not
 * fields. Templates are not expanded, so fields the template fetches from Wikidata are absent.
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes, TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { INFOBOX_SKIP_PARAMS, INFOBOX_TITLE_PARAMS, templateKind } from './grammar.js';
import { argText, render } from './render.js';
import type { Scope } from './scope.js';

/** "Template:Infobox_scientist" → "Infobox scientist". */
export function templateDisplayName(name: string): string {
  return name.replace(/^[^:]*:/, '').replace(/_/g, ' ').trim();
}

/**
 * An infobox embedded in another's parameter (`| module = {{Infobox scientist|embed=yes …}}`)
 * is rendered inside it, so it becomes a further section of the same infobox part.
 */
export function infoboxPart(t: TranscludeToken, scope: Scope, depth: number): Part {
  const sections: Part[] = [];
  const queue: { t: TranscludeToken; title: string | undefined }[] = [{ t, title: infoboxTitle(t, scope) }];
  for (let i = 0; i < queue.length && i < MAX_EMBEDDED; i++) {
    const current = queue[i]!;
    for (const e of embeddedInfoboxes(current.t)) {
      scope.embedded.add(e);
      queue.push({ t: e, title: infoboxTitle(e, scope, templateDisplayName(e.name)) });
    }
    sections.push(sectionOf(current.t, current.title, scope, depth));
  }
  return { name: templateDisplayName(t.name), type: 'infobox', has_parts: sections };
}

/** Embedded infoboxes beyond this many are ignored (real ones have a handful). */
const MAX_EMBEDDED = 50;

function embeddedInfoboxes(t: TranscludeToken): TranscludeToken[] {
  const out: TranscludeToken[] = [];
  const stack: AstNodes[] = [];
  for (const arg of t.getAllArgs()) stack.push(...arg.lastChild.childNodes);
  let budget = 10_000;
  while (stack.length > 0 && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'text') continue;
    if (n.type === 'template') {
      const tt = n as TranscludeToken;
      if (templateKind(tt.name).kind === 'infobox') out.push(tt);
      continue;
    }
    stack.push(...n.childNodes);
  }
  return out.reverse();
}

function sectionOf(t: TranscludeToken, title: string | undefined, scope: Scope, depth: number): Part {
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
  if (title !== undefined) section.name = title;
  if (fields.length > 0) section.has_parts = fields;
  return section;
}

function infoboxTitle(t: TranscludeToken, scope: Scope, fallback = scope.title): string | undefined {
  for (const key of INFOBOX_TITLE_PARAMS) {
    const value = argText(scope, t, key, { collect: false });
    if (value.length > 0) return value;
  }
  return fallback;
}
