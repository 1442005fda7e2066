/**
 * An infobox template → an `infobox` part: one section titled by the template's name parameter
 * (or the page title), one `field` per non-empty parameter, named by the parameter and valued by
 * its clean text. Layout and image parameters (grammar/wikitext.json `infobox.skipParams`) are not
 * fields; the image parameter becomes an `image` part first in the section. Templates are not expanded, so fields the template fetches from Wikidata are absent.
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes, FileToken, TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { INFOBOX_CAPTION_PARAMS, INFOBOX_IMAGE_PARAMS, INFOBOX_SKIP_PARAMS, INFOBOX_TITLE_PARAMS, templateKind } from './grammar.js';
import { fileUrl, imagePart } from './image.js';
import { argText, render } from './render.js';
import type { Scope } from './scope.js';

/** "Template:Infobox_scientist" → "Infobox scientist". */
function templateDisplayName(name: string): string {
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

/**
 * The infobox image: its parameter holds a file name ("Einstein 1921.jpg", "File:X.jpg") or a
 * whole `[[File:…]]`; the caption parameter, when present, is its caption.
 */
function infoboxImage(t: TranscludeToken, scope: Scope): Part | undefined {
  for (const key of INFOBOX_IMAGE_PARAMS) {
    const arg = t.getArg(key);
    if (arg === undefined) continue;
    const file = arg.lastChild.childNodes.find((n) => n.type === 'file') as FileToken | undefined;
    let part: Part | undefined;
    if (file !== undefined) part = imagePart(file, scope);
    else {
      const raw = arg.getValue().trim();
      const name = raw.slice(raw.indexOf(':') + 1).trim();
      const url = /\.[a-z0-9]{2,5}$/i.test(name) ? fileUrl(name, scope) : undefined;
      if (url !== undefined) part = { type: 'image', images: [{ content_url: url }] };
    }
    if (part === undefined) continue;
    for (const captionKey of INFOBOX_CAPTION_PARAMS) {
      const caption = argText(scope, t, captionKey, { collect: false });
      if (caption.length === 0) continue;
      part.value ??= caption;
      if (part.images?.[0] !== undefined) part.images[0].caption ??= caption;
      break;
    }
    return part;
  }
  return undefined;
}

function sectionOf(t: TranscludeToken, title: string | undefined, scope: Scope, depth: number): Part {
  const fields: Part[] = [];
  const image = infoboxImage(t, scope);
  if (image !== undefined) fields.push(image);
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
