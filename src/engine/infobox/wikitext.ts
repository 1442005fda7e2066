/**
 * An infobox template → an `infobox` part: one section titled by the template's name parameter
 * (or the page title), one `field` per non-empty parameter, named by the parameter and valued by
 * its clean text. Layout and image parameters (grammar/wikitext.json `infobox.skipParams`) are not
 * fields; the image parameter becomes an `image` part first in the section. Templates are not expanded, so fields the template fetches from Wikidata are absent.
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes, FileToken, TableToken, TdToken, TranscludeToken } from '../wikitext/syntax/types.js';
import { rowsOf } from '../table/wikitext.js';
import { INFOBOX_CAPTION_PARAMS, INFOBOX_IMAGE_PARAMS, INFOBOX_ROWS, INFOBOX_SKIP_PARAMS, INFOBOX_TITLE_PARAMS, templateDisplayName, templateKind } from '../wikitext/grammar.js';
import type { InfoboxRowRole } from '../wikitext/grammar.js';
import { cleanLabel } from './html.js';
import { InfoboxSections, isGroupName } from './build.js';
import { fieldOf } from '../wikitext/field.js';
import { fileUrl, imagePart } from '../figure/wikitext.js';
import { argText, render } from '../wikitext/render.js';
import type { Rendered } from '../wikitext/render.js';
import type { Scope } from '../wikitext/scope.js';
import { keep } from '../wikitext/found.js';
import type { Found } from '../wikitext/found.js';
import { pushAll } from '../arrays.js';


/**
 * An infobox embedded in another's parameter (`| module = {{Infobox scientist|embed=yes …}}`)
 * is rendered inside it, so it becomes a further section of the same infobox part, not an
 * infobox of its own: it is left out of what the box's readings found, which go to `found`.
 */
export function infoboxPart(t: TranscludeToken, scope: Scope, depth: number, found: Found[]): Part {
  const sections: Part[] = [];
  const own: Found[] = [];
  const embedded = new Set<TranscludeToken>();
  const queue: { t: TranscludeToken; title: string | undefined }[] = [{ t, title: infoboxTitle(t, scope) }];
  for (let i = 0; i < queue.length && i < MAX_EMBEDDED; i++) {
    const current = queue[i]!;
    for (const e of embeddedInfoboxes(current.t)) {
      embedded.add(e);
      queue.push({ t: e, title: infoboxTitle(e, scope, templateDisplayName(e.name)) });
    }
    pushAll(sections, sectionOf(current.t, current.title, scope, depth, own));
  }
  for (const f of own) if (f.kind !== 'infobox' || !embedded.has(f.token)) found.push(f);
  return { name: templateDisplayName(t.name), type: 'infobox', has_parts: sections };
}

/** Embedded infoboxes beyond this many are ignored (real ones have a handful). */
const MAX_EMBEDDED = 50;

function embeddedInfoboxes(t: TranscludeToken): TranscludeToken[] {
  const out: TranscludeToken[] = [];
  const stack: AstNodes[] = [];
  for (const arg of t.getAllArgs()) pushAll(stack, arg.lastChild.childNodes);
  let budget = 10_000;
  while (stack.length > 0 && budget-- > 0) {
    const n = stack.pop()!;
    // The type once: a getter of each node class, on every node of the box's parameters.
    const type = n.type;
    if (type === 'text') continue;
    if (type === 'template') {
      const tt = n as TranscludeToken;
      if (templateKind(tt.name).kind === 'infobox') out.push(tt);
      continue;
    }
    pushAll(stack, n.childNodes);
  }
  return out.reverse();
}

/**
 * The infobox image: its parameter holds a file name ("Einstein 1921.jpg", "File:X.jpg") or a
 * whole `[[File:…]]`; the caption parameter, when present, is its caption.
 */
function infoboxImage(t: TranscludeToken, scope: Scope, found: Found[]): Part | undefined {
  for (const key of INFOBOX_IMAGE_PARAMS) {
    const arg = t.getArg(key);
    if (arg === undefined) continue;
    const file = arg.lastChild.childNodes.find((n) => n.type === 'file') as FileToken | undefined;
    let part: Part | undefined;
    if (file !== undefined) part = imagePart(file, scope, found);
    else {
      const raw = arg.getValue().trim();
      const name = raw.slice(raw.indexOf(':') + 1).trim();
      const url = /\.[a-z0-9]{2,5}$/i.test(name) ? fileUrl(name, scope) : undefined;
      if (url !== undefined) part = { type: 'image', images: [{ content_url: url }] };
    }
    if (part === undefined) continue;
    for (const captionKey of INFOBOX_CAPTION_PARAMS) {
      const caption = argText(scope, t, captionKey, { textOnly: true });
      if (caption.length === 0) continue;
      part.value ??= caption;
      if (part.images?.[0] !== undefined) part.images[0].caption ??= caption;
      break;
    }
    return part;
  }
  return undefined;
}

/**
 * The box's fields in parameter order. {{Infobox}}'s numbered rows are read as the HTML door reads
 * their output: `headerN` (and `subheader`) opens a named section, `dataN` is a field named by
 * `labelN`, and a label-less `dataN` that is all bold ("'''Musical career'''") is a sub-header.
 */
function sectionOf(t: TranscludeToken, title: string | undefined, scope: Scope, depth: number, found: Found[]): Part[] {
  const box = new InfoboxSections(title);
  // The title section comes first even when empty; every header then opens a section of its own.
  box.current();
  const image = infoboxImage(t, scope, found);
  if (image !== undefined) box.add(image);
  const titleKey = INFOBOX_TITLE_PARAMS.find((k) => (t.getValue(k)?.trim() ?? '').length > 0);
  for (const arg of t.getAllArgs()) {
    const name = arg.name.trim();
    if (name.length === 0) continue;
    const key = name.toLowerCase();
    if (INFOBOX_SKIP_PARAMS.has(key)) continue;
    // How the box looks (an image, its size, a caption, a coordinate part, a style) is never a
    // field, in any language: by the name lists, or by a value that is a file name or a size.
    if (scope.profile.isPresentationalParameter(name, arg.getValue())) continue;
    // The parameter that titles the box is its title, not a field (as the HTML shows it).
    if (key === titleKey) continue;
    const row = numberedRow(key);
    if (row?.role === 'label') continue; // read with its data row
    const nodes = arg.lastChild.childNodes;
    if (row?.role === 'header' || row?.role === 'subheader') {
      box.header(kept(render(scope, nodes, {}, depth + 1), found));
      continue;
    }
    let label: string | undefined = name;
    if (row?.role === 'data') {
      label = labelOf(t, row.number, scope, depth);
      if (label === undefined && isBoldLine(arg.getValue())) {
        // Only a probe, collecting nothing: a value that names no group is rendered by fieldOf.
        const probe = render(scope, nodes, { textOnly: true }, depth + 1).value;
        if (isGroupName(probe)) {
          box.subheader(kept(render(scope, nodes, {}, depth + 1), found));
          continue;
        }
      }
    }
    const field = fieldOf(label, nodes, scope, depth, found);
    if (field !== undefined) box.add(field);
  }
  return box.sections;
}

/** `header3` → { role: 'header', number: '3' }, by grammar/wikitext.json `infobox.rows`. */
function numberedRow(key: string): { role: InfoboxRowRole; number: string } | undefined {
  const m = /^(.*?)(\d*)$/.exec(key)!;
  const role = INFOBOX_ROWS.get(m[1]!);
  if (role === undefined) return undefined;
  if (m[2]!.length === 0 && role !== 'subheader') return undefined;
  return { role, number: m[2]! };
}

/** The rendered `labelN` of a data row, without the decoration the HTML door also drops. */
function labelOf(t: TranscludeToken, number: string, scope: Scope, depth: number): string | undefined {
  for (const [base, role] of INFOBOX_ROWS) {
    if (role !== 'label') continue;
    const arg = t.getArg(`${base}${number}`);
    if (arg === undefined) continue;
    const text = cleanLabel(render(scope, arg.lastChild.childNodes, { textOnly: true }, depth + 1).value);
    if (text.length > 0) return text;
  }
  return undefined;
}

/** A value written wholly in bold ("'''Musical career'''"). */
const isBoldLine = (raw: string): boolean => /^\s*'''[^']+'''\s*$/.test(raw);

function infoboxTitle(t: TranscludeToken, scope: Scope, fallback = scope.title): string | undefined {
  for (const key of INFOBOX_TITLE_PARAMS) {
    const value = argText(scope, t, key, { textOnly: true });
    if (value.length > 0) return value;
  }
  return fallback;
}

/**
 * `{| class="infobox"` written as a wiki table: read like the HTML door reads table rows — the
 * caption or a first full-width header is the title, a later one opens a section, a label cell
 * and data cells make a field, a cell holding only a file is the image (its caption the text
 * under it).
 */
export function tableInfoboxPart(t: TableToken, scope: Scope, found: Found[]): Part | undefined {
  const { rows, caption } = rowsOf(t);
  const box = new InfoboxSections(caption === undefined ? undefined : kept(render(scope, caption.lastChild.childNodes), found) || undefined);
  for (const row of rows) {
    if (row.length === 1) {
      const cell = row[0]!;
      const nodes = cell.lastChild.childNodes;
      if (cell.subtype === 'th') {
        box.header(kept(render(scope, nodes), found));
        continue;
      }
      // Only a probe for files, collecting nothing: each reading below renders the text it keeps.
      const { files } = render(scope, nodes, { textOnly: true });
      const images = files.map((f) => imagePart(f, scope, found)).filter((p): p is Part => p !== undefined);
      if (images.length > 0) {
        for (const image of images) box.add(image);
        // Text beside the file in its cell is the image's caption. Rendered after the files' own
        // captions, its footnotes number after theirs, as on the page when the file leads the cell.
        const text = kept(render(scope, nodes), found);
        const last = images[images.length - 1]!;
        if (text.length > 0 && last.value === undefined) {
          last.value = text;
          if (last.images?.[0] !== undefined) last.images[0].caption = text;
        }
        continue;
      }
      const field = fieldOf(undefined, nodes, scope, 0, found);
      if (field !== undefined) box.add(field);
      continue;
    }
    const [labelCell, ...dataCells] = row as [TdToken, ...TdToken[]];
    const label = cleanLabel(render(scope, labelCell.lastChild.childNodes, { textOnly: true }).value);
    // Several data cells read as one value, a line each.
    const nodes = dataCells.flatMap((c, i) => (i === 0 ? [...c.lastChild.childNodes] : ['\n', ...c.lastChild.childNodes]));
    // A row read as nothing (its value only a lookup the wiki runs, an empty cell) is no field:
    // a label without a value tells a reader nothing.
    const field = fieldOf(label, nodes, scope, 0, found);
    if (field !== undefined) box.add(field);
  }
  if (box.sections.length === 0) return undefined;
  const { title, sections } = box;
  return title === undefined ? { type: 'infobox', has_parts: sections } : { name: title, type: 'infobox', has_parts: sections };
}

/** A reading kept by the box: its text, its finds to `found`. */
function kept(r: Rendered, found: Found[]): string {
  keep(found, r.found);
  return r.value;
}
