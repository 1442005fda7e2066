/**
 * Infoboxes → `infobox` parts of `section` parts of `field` / `image` parts. Works on the three
 * shapes found in the wild: table rows (`th.infobox-label` + `td.infobox-data`, header rows
 * `th.infobox-header` / `.infobox-above`), frwiki's `div.infobox_v3` (a title `div.entete`,
 * `div.images` with `div.legend`, then small tables whose `caption` is a header), and plain
 * two-column tables on other wikis (`th`/`td` or `td`/`td` rows).
 */
import type { Citation, Image, Link, Part } from '../../schema/article.js';
import type { AnyNode, ChildNode, Element } from '../dom.js';
import { attr, childNodes, findAll, findFirst, isElement, isText, nextSibling, parentOf, rawText, someToken, tagName } from '../dom.js';
import type { Context } from '../context.js';
import { MAX_DEPTH } from '../context.js';
import { inline, isCitationMarker } from '../inline.js';
import { INFOBOX, isMediaTypeof } from '../grammar.js';
import { hasClassIn, isNoise, isPronunciation } from '../rules.js';
import { templateCalls, transclusionHead } from '../transclusion.js';
import { imageOf } from '../image.js';
import { pushAll } from '../arrays.js';
import { gatherItems, itemPart, itemsText, makesList } from '../item-text.js';
import { InfoboxSections, isGroupName } from './build.js';

const LISTS = new Set(['ul', 'ol', 'dl']);

/** Cells and blocks that open a new infobox section or give the box its title (grammar/infobox.json). */
const isHeaderBlock = (el: Element): boolean => hasClassIn(el, INFOBOX.headerClasses);
const isCaption = (el: Element): boolean => hasClassIn(el, INFOBOX.captionClasses);

class InfoboxBuilder extends InfoboxSections {
  /**
   * Names of the data columns, from the last row of column headings: they hold across section
   * headers ({{Infobox football biography}}'s "International career" rows share the columns named
   * under "Senior career"), for rows with as many data cells.
   */
  private columns: string[] | undefined;

  constructor(readonly ctx: Context) {
    super();
  }

  /**
   * A caption in a row of its own belongs to the image just above it ({{Infobox}} `caption`
   * rows under `image` rows); false when there is no such image, and it is read as a field.
   */
  caption(cell: Element): boolean {
    const parts = this.sections[this.sections.length - 1]?.has_parts;
    const last = parts?.[parts.length - 1];
    const image = last?.type === 'image' && last.value === undefined ? last.images?.[0] : undefined;
    if (last === undefined || image === undefined) return false;
    const caption = inline(cell, this.ctx);
    if (caption.value.length === 0) return true;
    last.value = caption.value;
    image.caption = caption.value;
    if (caption.links.length > 0) last.links = caption.links;
    return true;
  }

  /** Walks the box in document order: rows, captions, header blocks and free-standing images. */
  walk(el: Element, depth: number): void {
    for (const child of childNodes(el)) {
      if (!isElement(child) || isNoise(child)) continue;
      if (depth > MAX_DEPTH) continue;
      const name = tagName(child);
      if (name === 'tr') this.row(child, depth + 1);
      else if (name === 'caption' || (isHeaderBlock(child) && name !== 'table')) this.header(inline(child, this.ctx).value);
      else if (isCaption(child)) continue; // read together with its image
      else if (isImageBlock(child)) this.image(child);
      else this.walk(child, depth + 1);
    }
  }

  row(tr: Element, depth: number): void {
    const cells: Element[] = [];
    for (const c of childNodes(tr)) if (isElement(c) && (tagName(c) === 'th' || tagName(c) === 'td') && !isNoise(c)) cells.push(c);
    if (cells.length === 0) return;
    if (cells.length === 1) return this.singleCell(cells[0]!, depth);
    const [labelCell, ...dataCells] = cells as [Element, ...Element[]];
    const label = cleanLabel(inline(labelCell, this.ctx).value);
    if (label.length === 0 && dataCells.some((c) => findFirst(c, (e) => tagName(e) === 'img') !== undefined)) {
      for (const c of dataCells) this.image(c);
      return;
    }
    const inner = dataCells.flatMap((c) => outerTables(c));
    if (inner.length > 0 && label.length > 0 && outerTables(labelCell).length === 0) return this.tableRow(label, dataCells, inner, depth);
    const headings = isColumnHeadings(labelCell, dataCells);
    if (headings) this.columns = dataCells.map((c) => inline(c, this.ctx).value);
    else if (this.columns?.length === dataCells.length && tagName(labelCell) === 'th') return this.columnRow(label, dataCells, this.columns);
    const field = fieldPart(label, headings ? dataCells.slice(0, 1) : dataCells, this.ctx);
    if (field !== undefined) this.add(field);
  }

  /**
   * A row of a table inside the box, below a row of column headings: {{Infobox football
   * biography}}'s career rows "2016– | Lazio | 256 | (166)" under "Years | Team | Apps | (Gls)"
   * ({{Infobox3cols}}), frwiki's medal counts under "Compétition | Or | Arg. | Bro.". The value is
   * the first column, as for a one-column row; every column is a field inside it, named by its
   * heading. The heading row itself stays a field ("Years: Team"), as one-column rows are read.
   */
  private columnRow(label: string, dataCells: readonly Element[], columns: readonly string[]): void {
    const field = fieldPart(label, dataCells.slice(0, 1), this.ctx) ?? { type: 'field', name: label, value: '' };
    dataCells.forEach((cell, i) => {
      const column = fieldPart(columns[i], [cell], this.ctx);
      if (column !== undefined) (field.has_parts ??= []).push(column);
    });
    this.add(field);
  }

  /**
   * A label over a table of its own ({{Infobox software}}'s "Initial release" cell holds one row
   * per platform: "Windows XP | Beta / September 2, 2008"): the table's rows are the field's
   * fields. Its value is the cell's text outside the table, else those fields in one line.
   */
  private tableRow(label: string, dataCells: readonly Element[], tables: readonly Element[], depth: number): void {
    const own = dataCells.map((c) => inline(c, this.ctx, { ...FIELD, skipTables: true }));
    const inner = new InfoboxBuilder(this.ctx);
    for (const table of tables) inner.walk(table, depth + 1);
    const parts = inner.sections.flatMap((section) => section.has_parts ?? []);
    const text = own.map((o) => o.value).filter((v) => v.length > 0).join(' ');
    const field: Part = { type: 'field', name: label, value: text.length > 0 ? text : parts.map(partLine).filter((l) => l.length > 0).join('; ') };
    const links = own.flatMap((o) => o.links);
    const citations = own.flatMap((o) => o.citations);
    gatherItems(parts, links, citations);
    if (parts.length > 0) field.has_parts = parts;
    if (links.length > 0) field.links = links;
    if (citations.length > 0) field.citations = citations;
    this.add(field);
  }

  private singleCell(cell: Element, depth: number): void {
    const hasTable = findFirst(cell, (e) => tagName(e) === 'table') !== undefined;
    const subheader = hasTable || tagName(cell) === 'th' || isHeaderBlock(cell) ? undefined : subheaderText(cell, this.ctx);
    if (subheader !== undefined) return this.subheader(subheader);
    if (isCaption(cell) && this.caption(cell)) return;
    if (tagName(cell) === 'th' || isHeaderBlock(cell)) {
      // A title cell may hold a collapsible sub-table ("4 other names"): title first, then its rows.
      this.header(inline(cell, this.ctx, { skipTables: true }).value);
      if (hasTable) this.walk(cell, depth + 1);
      return;
    }
    if (hasTable) return this.walk(cell, depth + 1);
    if (findFirst(cell, (e) => tagName(e) === 'img') !== undefined) return this.image(cell);
    const field = fieldPart(undefined, [cell], this.ctx);
    if (field !== undefined) this.add(field);
  }

  /** An image with its caption: the caption element inside the block, or the next sibling. */
  image(block: Element): void {
    const img = findFirst(block, (e) => tagName(e) === 'img');
    if (img === undefined) return;
    let captionEl = findFirst(block, isCaption);
    if (captionEl === undefined) {
      for (let n = nextSibling(block); n !== null; n = nextSibling(n)) {
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
  return label.replace(LABEL_START, '').replace(LABEL_END, '');
}

/** A character class of the grammar's characters, with the spaces around a label. */
const charClass = (chars: string): string => `[\\s${chars.replace(/[\\\]^-]/g, '\\$&')}]+`;
const LABEL_START = new RegExp(`^${charClass(INFOBOX.labelBullets)}`, 'u');
const LABEL_END = new RegExp(`${charClass(INFOBOX.labelEnds)}$`, 'u');

/**
 * A row that names the columns of the rows below it: a label cell (`th`) and two or more data
 * cells that are all headings, `th` or wholly bold `td` ({{Infobox3cols}} writes '''Team''').
 */
function isColumnHeadings(labelCell: Element, dataCells: readonly Element[]): boolean {
  if (tagName(labelCell) !== 'th' || dataCells.length < 2) return false;
  return dataCells.every((c) => tagName(c) === 'th') || dataCells.every((c) => tagName(c) === 'td' && isBoldOnly(c));
}

/** All of the cell's visible text is bold (grammar/infobox.json `subheaderTags`): a column heading. */
function isBoldOnly(cell: Element): boolean {
  let hasText = false;
  const visit = (node: AnyNode, inBold: boolean, depth: number): boolean => {
    if (!isElement(node)) {
      if (!isText(node) || rawText(node).trim() === '') return true;
      hasText = true;
      return inBold;
    }
    if (isNoise(node)) return true;
    if (depth > MAX_DEPTH) return false;
    const bold = inBold || INFOBOX.subheaderTags.has(tagName(node));
    return childNodes(node).every((c) => visit(c, bold, depth + 1));
  };
  return childNodes(cell).every((c) => visit(c, false, 0)) && hasText;
}

function isImageBlock(el: Element): boolean {
  if (tagName(el) === 'img') return true;
  if (tagName(el) === 'figure' || hasClassIn(el, INFOBOX.imageClasses)) return true;
  return someToken(attr(el, 'typeof'), isMediaTypeof);
}

/**
 * A label and its data cells as a `field`. A list in the data — ul/ol/dl items, or lines
 * separated by <br> — becomes one `list_item` per item (a nested list: `list_item`s inside its
 * item; text between lists, "By race:", an item of its own over the list that follows it), and
 * `value` joins the items with "; ". Small icons add their alt text ("Gold medal – first place").
 */
export function fieldPart(label: string | undefined, cells: readonly Element[], ctx: Context): Part | undefined {
  const items = listItems(cells, ctx);
  const links: Link[] = [];
  const citations: Citation[] = [];
  let value: string;
  if (items !== undefined) {
    gatherItems(items, links, citations);
    value = itemsText(items);
  } else {
    const parts = cells.map((c) => inline(c, ctx, FIELD));
    value = parts.map((p) => p.value).filter((v) => v.length > 0).join(' ');
    for (const p of parts) {
      pushAll(links, p.links);
      pushAll(citations, p.citations);
    }
  }
  const images = cellImages(cells, ctx);
  // A label over an empty cell still says something: it groups the indented rows below it.
  if (value.length === 0 && images.length === 0 && (label === undefined || label.length === 0)) return undefined;
  const field: Part = { type: 'field' };
  if (label !== undefined && label.length > 0) field.name = label;
  field.value = value;
  if (items !== undefined) field.has_parts = items;
  if (links.length > 0) field.links = links;
  if (images.length > 0) field.images = images;
  if (citations.length > 0) field.citations = citations;
  return field;
}

/**
 * An image small enough to be an icon (grammar/infobox.json `iconMaxSize`) and not one whose alt
 * text repeats or is chrome: a flag beside the name it shows, an edit pencil, a loudspeaker
 * (`iconSkipClasses`, `iconSkipLinks`, pronunciation markup).
 */
function isIcon(img: Element): boolean {
  const width = Number(attr(img, 'width'));
  const height = Number(attr(img, 'height'));
  const max = INFOBOX.iconMaxSize;
  if (!(width > 0 && width <= max && height > 0 && height <= max)) return false;
  for (let n = parentOf(img); n !== null && isElement(n); n = parentOf(n)) {
    if (hasClassIn(n, INFOBOX.iconSkipClasses) || isPronunciation(n)) return false;
    const href = tagName(n) === 'a' ? attr(n, 'href') : undefined;
    if (href !== undefined && INFOBOX.iconSkipLinks.some((part) => href.includes(part))) return false;
  }
  return true;
}

/** How field values render: icons speak through their alt text. */
const FIELD = { isIcon } as const;

const isList = (e: Element): boolean => LISTS.has(tagName(e)) && !isNoise(e);

function listItems(cells: readonly Element[], ctx: Context): Part[] | undefined {
  if (cells.some((c) => findFirst(c, isList) !== undefined)) {
    const items = cells.flatMap((c) => new ItemReader(ctx).read(childNodes(c), 0));
    return makesList(items) ? items : undefined;
  }
  const lines = cells.flatMap((c) => splitAtBreaks(unwrap(c)));
  if (lines.length < 2) return undefined;
  const items = lines.map((nodes) => inline(nodes, ctx, FIELD)).filter((i) => i.value.length > 0);
  return items.length > 1 ? items.map((i) => itemPart(i)) : undefined;
}

/**
 * Reads a cell that holds lists in document order: runs of inline content between lists become
 * items of their own, and a run directly followed by a list (a lead-in such as "By race:") takes
 * that list's items as its sub-items, so two distributions in one cell stay apart.
 */
class ItemReader {
  private run: AnyNode[] = [];
  private readonly out: Part[] = [];
  /** The lead-in item waiting for the list after it. */
  private leadIn: Part | undefined;

  constructor(readonly ctx: Context) {}

  read(nodes: Iterable<AnyNode>, depth: number): Part[] {
    this.walk(nodes, depth);
    this.flush();
    return this.out;
  }

  private walk(nodes: Iterable<AnyNode>, depth: number): void {
    for (const node of nodes) {
      if (!isElement(node)) {
        this.run.push(node);
        continue;
      }
      if (isNoise(node)) {
        const last = this.out[this.out.length - 1];
        if (isCitationMarker(node) && last !== undefined && this.runIsBlank()) {
          // A marker right after a list ("…</ul><sup>[3]</sup>") cites what the list belongs to.
          const { citations } = inline([node], this.ctx);
          if (citations.length > 0) pushAll((last.citations ??= []), citations);
        } else this.run.push(node); // inline() drops it, keeping its citation markers
        continue;
      }
      if (isList(node)) {
        this.flush();
        const items = listOf(node, this.ctx, depth + 1);
        if (this.leadIn !== undefined) pushAll((this.leadIn.has_parts ??= []), items);
        else pushAll(this.out, items);
        continue;
      }
      // A wrapper (div.plainlist, p) around a list is looked through; any other element is inline.
      if (depth < MAX_DEPTH && findFirst(node, isList) !== undefined) {
        if (BLOCKS.has(tagName(node))) this.flush();
        this.walk(childNodes(node), depth + 1);
        if (BLOCKS.has(tagName(node))) this.flush();
      } else {
        if (BLOCKS.has(tagName(node))) this.flush();
        this.run.push(node);
        if (BLOCKS.has(tagName(node)) || tagName(node) === 'br') this.flush();
      }
    }
  }

  private runIsBlank(): boolean {
    return this.run.every((n) => isText(n) && rawText(n).trim() === '');
  }

  /** Ends the current run of inline content; a non-empty one becomes an item (and a lead-in). */
  private flush(): void {
    if (this.run.length === 0) return;
    const text = inline(this.run, this.ctx, FIELD);
    this.run = [];
    if (text.value.length === 0) {
      // A marker after a list ("…</ul><sup>[3]</sup>") cites the item before it.
      const last = this.out[this.out.length - 1];
      if (last !== undefined && text.citations.length > 0) pushAll((last.citations ??= []), text.citations);
      return;
    }
    const part = itemPart(text);
    this.out.push(part);
    this.leadIn = part;
  }
}

/** Block elements end a run of inline content: text on either side is separate. */
const BLOCKS = new Set(['div', 'p', 'br', 'table', 'blockquote', 'center']);

/** The items of one list, each with the items of the lists nested in it. */
function listOf(list: Element, ctx: Context, depth: number): Part[] {
  const items: Part[] = [];
  for (const li of childNodes(list)) {
    if (!isElement(li) || !(tagName(li) === 'li' || tagName(li) === 'dd' || tagName(li) === 'dt') || isNoise(li)) continue;
    const item = inline(li, ctx, { ...FIELD, skipLists: true });
    const children = depth < MAX_DEPTH ? findAll(li, isList).flatMap((sub) => listOf(sub, ctx, depth + 1)) : [];
    if (item.value.length === 0 && children.length === 0) continue;
    // An item that is only a sub-list (a "*:" indent) lends its items to the list.
    if (item.value.length === 0) pushAll(items, children);
    else items.push(itemPart(item, children));
  }
  return items;
}

/**
 * The text of a full-width cell that is a sub-header: all its visible text inside one bold
 * element (grammar/infobox.json `subheaderTags`), e.g. `<td><b>Musical career</b></td>`.
 */
function subheaderText(cell: Element, ctx: Context): string | undefined {
  let bold: Element | undefined;
  for (const child of childNodes(cell)) {
    if (isElement(child)) {
      if (isNoise(child)) continue;
      if (bold !== undefined || !INFOBOX.subheaderTags.has(tagName(child))) return undefined;
      bold = child;
    } else if (isText(child) && rawText(child).trim().length > 0) return undefined;
  }
  if (bold === undefined || findFirst(bold, (e) => tagName(e) === 'img') !== undefined) return undefined;
  const text = inline(bold, ctx).value;
  return isGroupName(text) ? text : undefined;
}

/** The tables in a cell that are not inside another table of it (nor noise). */
function outerTables(cell: Element): Element[] {
  return findAll(cell, (e) => tagName(e) === 'table' && !isNoise(e)).filter((t) => {
    for (let p = parentOf(t); p !== null && p !== cell; p = parentOf(p)) if (isElement(p) && tagName(p) === 'table') return false;
    return true;
  });
}

/** A field as one line of its parent's value: "Windows XP: Beta / September 2, 2008". */
function partLine(part: Part): string {
  const value = part.value ?? '';
  return part.name === undefined ? value : value.length > 0 ? `${part.name}: ${value}` : part.name;
}

/** Descends through single-element wrappers (div.plainlist, span) to the content. */
function unwrap(el: Element): Element {
  let current = el;
  for (;;) {
    let only: ChildNode | undefined;
    let count = 0;
    for (const c of childNodes(current)) {
      if (isText(c) && rawText(c).trim() === '') continue;
      only = c;
      count++;
    }
    if (count !== 1) only = undefined;
    if (only === undefined || !isElement(only) || tagName(only) === 'a' || tagName(only) === 'br') return current;
    current = only;
  }
}

function splitAtBreaks(el: Element): AnyNode[][] {
  const groups: AnyNode[][] = [[]];
  for (const child of childNodes(el)) {
    if (isElement(child) && tagName(child) === 'br') groups.push([]);
    else groups[groups.length - 1]!.push(child);
  }
  return groups.filter((g) => g.length > 0);
}

function cellImages(cells: readonly Element[], ctx: Context): Image[] {
  const images: Image[] = [];
  for (const cell of cells) {
    for (const img of findAll(cell, (e) => tagName(e) === 'img')) {
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
