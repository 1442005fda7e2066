/**
 * Infoboxes → `infobox` parts of `section` parts of `field` / `image` parts. Works on the three
 * shapes found in the wild: table rows (`th.infobox-label` + `td.infobox-data`, header rows
 * `th.infobox-header` / `.infobox-above`), frwiki's `div.infobox_v3` (a title `div.entete`,
 * `div.images` with `div.legend`, then small tables whose `caption` is a header), and plain
 * two-column tables on other wikis (`th`/`td` or `td`/`td` rows).
 */
import type { Citation, Image, Link, Part } from '../../schema/article.js';
import type { AnyNode, Element } from '../dom.js';
import { findAll, findFirst, isElement, rawText } from '../dom.js';
import type { Context } from '../context.js';
import { MAX_DEPTH } from '../context.js';
import { inline } from '../inline.js';
import { INFOBOX } from '../grammar.js';
import { hasClassIn, isNoise } from '../rules.js';
import { templateCalls, transclusionHead } from '../transclusion.js';
import { imageOf } from './figure.js';

const LISTS = new Set(['ul', 'ol', 'dl']);

/** Cells and blocks that open a new infobox section or give the box its title (grammar/infobox.json). */
const isHeaderBlock = (el: Element): boolean => hasClassIn(el, INFOBOX.headerClasses);
const isCaption = (el: Element): boolean => hasClassIn(el, INFOBOX.captionClasses);

class InfoboxBuilder {
  readonly sections: Part[] = [];
  title: string | undefined;

  constructor(readonly ctx: Context) {}

  private current(): Part {
    let last = this.sections[this.sections.length - 1];
    if (last === undefined) {
      last = { type: 'section' };
      if (this.title !== undefined) last.name = this.title;
      this.sections.push(last);
    }
    return last;
  }

  header(text: string): void {
    if (text.length === 0) return;
    if (this.title === undefined && this.sections.length === 0) {
      this.title = text;
      return;
    }
    // The title section exists even when no image or field precedes the first header.
    this.current();
    this.sections.push({ name: text, type: 'section' });
  }

  add(part: Part): void {
    const section = this.current();
    (section.has_parts ??= []).push(part);
  }

  /** Walks the box in document order: rows, captions, header blocks and free-standing images. */
  walk(el: Element, depth: number): void {
    for (const child of el.children) {
      if (!isElement(child) || isNoise(child)) continue;
      if (depth > MAX_DEPTH) continue;
      const name = child.name;
      if (name === 'tr') this.row(child, depth + 1);
      else if (name === 'caption' || (isHeaderBlock(child) && name !== 'table')) this.header(inline(child, this.ctx).value);
      else if (isCaption(child)) continue; // read together with its image
      else if (isImageBlock(child)) this.image(child);
      else this.walk(child, depth + 1);
    }
  }

  row(tr: Element, depth: number): void {
    const cells: Element[] = [];
    for (const c of tr.children) if (isElement(c) && (c.name === 'th' || c.name === 'td') && !isNoise(c)) cells.push(c);
    if (cells.length === 0) return;
    if (cells.length === 1) return this.singleCell(cells[0]!, depth);
    const [labelCell, ...dataCells] = cells as [Element, ...Element[]];
    const label = cleanLabel(inline(labelCell, this.ctx).value);
    if (label.length === 0 && dataCells.some((c) => findFirst(c, (e) => e.name === 'img') !== undefined)) {
      for (const c of dataCells) this.image(c);
      return;
    }
    const field = fieldPart(label, dataCells, this.ctx);
    if (field !== undefined) this.add(field);
  }

  private singleCell(cell: Element, depth: number): void {
    const hasTable = findFirst(cell, (e) => e.name === 'table') !== undefined;
    if (cell.name === 'th' || isHeaderBlock(cell)) {
      // A title cell may hold a collapsible sub-table ("4 other names"): title first, then its rows.
      this.header(inline(cell, this.ctx, { skipTables: true }).value);
      if (hasTable) this.walk(cell, depth + 1);
      return;
    }
    if (hasTable) return this.walk(cell, depth + 1);
    if (findFirst(cell, (e) => e.name === 'img') !== undefined) return this.image(cell);
    const field = fieldPart(undefined, [cell], this.ctx);
    if (field !== undefined) this.add(field);
  }

  /** An image with its caption: the caption element inside the block, or the next sibling. */
  image(block: Element): void {
    const img = findFirst(block, (e) => e.name === 'img');
    if (img === undefined) return;
    let captionEl = findFirst(block, isCaption);
    if (captionEl === undefined) {
      for (let n = block.next; n !== null; n = n.next) {
        if (!isElement(n)) continue;
        if (isCaption(n)) captionEl = n;
        break;
      }
    }
    const caption = captionEl === undefined ? undefined : inline(captionEl, this.ctx);
    const image = imageOf(img, this.ctx, caption?.value);
    if (image === undefined) return;
    const part: Part = { type: 'image', images: [image] };
    if (caption !== undefined && caption.value.length > 0) part.value = caption.value;
    if (caption !== undefined && caption.links.length > 0) part.links = caption.links;
    this.add(part);
  }
}

/**
 * Labels lose their layout decoration: the "•" of indented sub-rows in {{Infobox country}} and
 * the trailing colon of taxoboxes ("Kingdom:").
 */
export function cleanLabel(label: string): string {
  return label.replace(/^[\s•·◦‣∙]+/u, '').replace(/[\s:：]+$/u, '');
}

function isImageBlock(el: Element): boolean {
  if (el.name === 'img') return true;
  if (el.name === 'figure' || hasClassIn(el, INFOBOX.imageClasses)) return true;
  const t = el.attribs.typeof;
  return t !== undefined && (t.includes('mw:File') || t.includes('mw:Image'));
}

/**
 * A label and its data cells as a `field`. A list in the data — ul/ol/dl items, or lines
 * separated by <br> — becomes one `list_item` per item, and `value` joins the items with "; ".
 */
export function fieldPart(label: string | undefined, cells: readonly Element[], ctx: Context): Part | undefined {
  const items = listItems(cells, ctx);
  const links: Link[] = [];
  const citations: Citation[] = [];
  let value: string;
  let itemParts: Part[] | undefined;
  if (items !== undefined) {
    itemParts = [];
    for (const item of items) {
      const part: Part = { type: 'list_item', value: item.value };
      if (item.links.length > 0) part.links = item.links;
      if (item.citations.length > 0) part.citations = item.citations;
      itemParts.push(part);
      links.push(...item.links);
      citations.push(...item.citations);
    }
    value = items.map((i) => i.value).join('; ');
  } else {
    const parts = cells.map((c) => inline(c, ctx));
    value = parts.map((p) => p.value).filter((v) => v.length > 0).join(' ');
    for (const p of parts) {
      links.push(...p.links);
      citations.push(...p.citations);
    }
  }
  const images = cellImages(cells, ctx);
  // A label over an empty cell still says something: it groups the indented rows below it.
  if (value.length === 0 && images.length === 0 && (label === undefined || label.length === 0)) return undefined;
  const field: Part = { type: 'field' };
  if (label !== undefined && label.length > 0) field.name = label;
  field.value = value;
  if (itemParts !== undefined) field.has_parts = itemParts;
  if (links.length > 0) field.links = links;
  if (images.length > 0) field.images = images;
  if (citations.length > 0) field.citations = citations;
  return field;
}

type Item = ReturnType<typeof inline>;

function listItems(cells: readonly Element[], ctx: Context): Item[] | undefined {
  const lists = cells.flatMap((c) => findAll(c, (e) => LISTS.has(e.name) && !isNoise(e)));
  if (lists.length > 0) {
    const items: Item[] = [];
    for (const list of lists) {
      for (const li of list.children) {
        if (!isElement(li) || !(li.name === 'li' || li.name === 'dd' || li.name === 'dt') || isNoise(li)) continue;
        const item = inline(li, ctx, { skipLists: true });
        if (item.value.length > 0) items.push(item);
      }
    }
    return items.length > 1 ? items : undefined;
  }
  const lines = cells.flatMap((c) => splitAtBreaks(unwrap(c)));
  if (lines.length < 2) return undefined;
  const items = lines.map((nodes) => inline(nodes, ctx)).filter((i) => i.value.length > 0);
  return items.length > 1 ? items : undefined;
}

/** Descends through single-element wrappers (div.plainlist, span) to the content. */
function unwrap(el: Element): Element {
  let current = el;
  for (;;) {
    const kids = current.children.filter((c) => !(c.type === 'text' && rawText(c).trim() === ''));
    const only = kids.length === 1 ? kids[0] : undefined;
    if (only === undefined || !isElement(only) || only.name === 'a' || only.name === 'br') return current;
    current = only;
  }
}

function splitAtBreaks(el: Element): AnyNode[][] {
  const groups: AnyNode[][] = [[]];
  for (const child of el.children) {
    if (isElement(child) && child.name === 'br') groups.push([]);
    else groups[groups.length - 1]!.push(child);
  }
  return groups.filter((g) => g.length > 0);
}

function cellImages(cells: readonly Element[], ctx: Context): Image[] {
  const images: Image[] = [];
  for (const cell of cells) {
    for (const img of findAll(cell, (e) => e.name === 'img')) {
      const image = imageOf(img, ctx);
      if (image !== undefined) images.push(image);
    }
  }
  return images;
}

/** The template's name from the transclusion's data-mw, e.g. "Infobox person". */
function templateNameOf(box: Element): string | undefined {
  const head = transclusionHead(box);
  if (head === undefined) return undefined;
  const calls = templateCalls(head);
  const boxy = calls.find((c) => {
    const name = c.name.toLowerCase();
    return INFOBOX.templateHints.some((hint) => name.includes(hint));
  });
  return (boxy ?? calls[0])?.name;
}

export function infoboxPart(box: Element, ctx: Context, depth: number): Part | undefined {
  const builder = new InfoboxBuilder(ctx);
  builder.walk(box, depth);
  if (builder.sections.length === 0) return undefined;
  const name = templateNameOf(box) ?? builder.title;
  const part: Part = name === undefined ? { type: 'infobox' } : { name, type: 'infobox' };
  part.has_parts = builder.sections;
  return part;
}
