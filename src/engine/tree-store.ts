/**
 * Where parsed pages live: each page's tree in typed arrays (columns, one entry per node or per
 * attribute), outside the JavaScript heap. The strings stay the page's own: a text or an
 * attribute value is an offset range into the page's HTML, sliced when read, and only what the
 * page does not hold as written (decoded character references, joined texts, the shared copies of
 * class and typeof values) is a string of its own.
 *
 * Why (docs/batch.md points (11) and (12)): a tree of objects lives in the young generation until
 * its page is done, and every young collection in between copies it whole and then promotes it.
 * With the 48 MB young generation that `convert` needs for 350 MB at `--jobs 2`, that copying cost
 * 9 % of the run's CPU. Columns are never copied, and are reused from page to page.
 *
 * Nodes are named by handles (dom-nodes.ts): numbers that carry the page they belong to, a tag in
 * their top bits, so that no accessor needs the page passed in. The last SLOT_COUNT pages are kept;
 * a handle of an older page is refused with an error rather than read from its successor. (The
 * tags come round every TAG_COUNT pages: a handle kept that long could name a node of a later page.
 * Nothing in the engine keeps one past its parse; `parse` lets its page go at once, dom.ts
 * `withDocument`.)
 */
import type { ReferenceIndexes } from './dom-nodes.js';

/** What a node is; domhandler's `type`, numbered. */
export const enum Kind {
  Tag = 1,
  Script = 2,
  Style = 3,
  Text = 4,
  Comment = 5,
  Directive = 6,
  Root = 7,
}

export const KIND_NAMES = ['', 'tag', 'script', 'style', 'text', 'comment', 'directive', 'root'] as const;
export type KindName = (typeof KIND_NAMES)[number];

/** Node ids take the low ID_BITS bits of a handle; the page's tag the bits above. */
export const ID_BITS = 24;
export const ID_MASK = (1 << ID_BITS) - 1;
/** Ids run from 1 (the document) to MAX_NODES: 0 stands for "none" in the columns. */
export const MAX_NODES = ID_MASK;
/** Handles stay small integers (V8 keeps them unboxed): 7 bits of tag above 24 of id. */
const TAG_COUNT = 128;
/** Pages kept at once: the one being read, and a few a caller may still hold. */
const SLOT_COUNT = 4;
/** A page's columns are kept for the next page, unless a huge page grew them beyond this many nodes. */
const KEEP_NODES = 1 << 20;

export class Tree {
  /** The tag of the page held; every handle of it carries this tag. */
  tag = -1;
  /** `tag << ID_BITS`: added to an id, the node's handle. */
  base = 0;
  html = '';
  /** Strings the page does not hold as written, by index (a range's start is `~index`). */
  strings: string[] = [];
  /** Tag names, by id, lower case. */
  names: string[] = [];
  nameIds = new Map<string, number>();
  /** Nodes in use: ids 1..nodeCount. */
  nodeCount = 0;
  kind = new Uint8Array(0);
  name = new Int32Array(0);
  /** The parent's handle; 0 for the document. */
  parent = new Int32Array(0);
  /** Where the node's children start in `kids`, and how many. */
  first = new Int32Array(0);
  count = new Int32Array(0);
  /** Where the node itself stands in `kids` (its parent's children): its siblings are beside it. */
  slot = new Int32Array(0);
  /** A text's, comment's or directive's characters: `html[start, end)`, or strings[~start]. */
  start = new Int32Array(0);
  end = new Int32Array(0);
  /** An element's attributes: attribute columns `[attrs, attrs + attrCount)`. */
  attrs = new Int32Array(0);
  attrCount = new Int32Array(0);
  /** rules.ts's noise verdict: 0 not asked yet, 1 content, 2 noise. */
  noise = new Int8Array(0);
  /** The children of every node, each node's together, as handles. */
  kids = new Int32Array(0);
  kidCount = 0;
  /**
   * Attribute columns: the name (lower case, one string per name for the process, so that
   * comparing names is comparing pointers: tree-builder.ts lowerName), value as `start`/`end` above.
   * A plain array, kept with the columns from page to page: its strings are long-lived, so
   * filling it again makes no garbage.
   */
  attrName: string[] = [];
  valueStart = new Int32Array(0);
  valueEnd = new Int32Array(0);
  attrTotal = 0;
  /** Elements with an `id` attribute, in document order (handles). */
  withId: number[] = [];
  /** What reference/html.ts indexes once per document (dom.ts referenceIndexes). */
  references: ReferenceIndexes | undefined = undefined;

  /** Room for `nodes` nodes and `attributes` attributes; the columns grow by doubling. */
  reserve(nodes: number, attributes: number): void {
    if (nodes >= this.kind.length) this.growNodes(Math.max(nodes + 1, this.kind.length * 2, 1024));
    if (attributes > this.valueStart.length) this.growAttributes(Math.max(attributes, this.valueStart.length * 2, 1024));
  }

  private growNodes(size: number): void {
    this.kind = grown(this.kind, new Uint8Array(size));
    this.name = grown(this.name, new Int32Array(size));
    this.parent = grown(this.parent, new Int32Array(size));
    this.first = grown(this.first, new Int32Array(size));
    this.count = grown(this.count, new Int32Array(size));
    this.slot = grown(this.slot, new Int32Array(size));
    this.start = grown(this.start, new Int32Array(size));
    this.end = grown(this.end, new Int32Array(size));
    this.attrs = grown(this.attrs, new Int32Array(size));
    this.attrCount = grown(this.attrCount, new Int32Array(size));
    this.noise = grown(this.noise, new Int8Array(size));
    // Every node but the document is one parent's child once.
    this.kids = grown(this.kids, new Int32Array(size));
  }

  private shrink(): void {
    this.kind = new Uint8Array(0);
    this.name = this.parent = this.first = this.count = this.slot = this.start = this.end = this.attrs = this.attrCount = this.kids = new Int32Array(0);
    this.noise = new Int8Array(0);
    this.attrName = [];
    this.valueStart = this.valueEnd = new Int32Array(0);
  }

  private growAttributes(size: number): void {
    this.valueStart = grown(this.valueStart, new Int32Array(size));
    this.valueEnd = grown(this.valueEnd, new Int32Array(size));
  }

  /** The id of a tag name, added on first use. */
  nameId(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  /** A string of the page's own (see `strings`), as the `start` of a range. */
  own(value: string): number {
    this.strings.push(value);
    return ~(this.strings.length - 1);
  }

  /** The characters of a range: `html[start, end)`, or the string of its own. */
  read(start: number, end: number): string {
    return start >= 0 ? this.html.slice(start, end) : this.strings[~start]!;
  }

  /** A claimed tree is new or let go (`release` emptied it): it only takes the page on. */
  private reset(tag: number, html: string): void {
    this.tag = tag;
    this.base = tag << ID_BITS;
    this.html = html;
  }

  /**
   * Drops what the page held, its handles refused from now on; the columns wait for the next page
   * (the largest set only: one set, grown to the largest page, serves a worker's whole run).
   */
  release(): void {
    if (this.tag < 0) return;
    // Columns a huge page grew are not kept: no later page should hold on to them.
    if (this.kind.length > KEEP_NODES) this.shrink();
    else if (spare === undefined || spare.kind.length < this.kind.length) spare = this;
    this.tag = -1;
    this.html = '';
    this.strings = [];
    this.names = [];
    this.nameIds = new Map();
    this.nodeCount = 0;
    this.kidCount = 0;
    this.attrTotal = 0;
    this.withId = [];
    this.references = undefined;
  }

  /**
   * A tree for a new page, in the slot of its tag: the page that slot held is forgotten, unless it
   * was let go already; the columns are the spare ones when there are.
   */
  static claim(html: string): Tree {
    const tag = (lastTag + 1) % TAG_COUNT;
    lastTag = tag;
    const at = tag % SLOT_COUNT;
    const held = slots[at];
    if (held !== undefined && held.tag >= 0 && held.tag % SLOT_COUNT === at) held.release();
    const tree = spare ?? new Tree();
    spare = undefined;
    tree.reset(tag, html);
    slots[at] = tree;
    return tree;
  }
}

// The pages kept, by slot (a slot may still point at a tree since let go and reused elsewhere: the
// tags tell); `Tree.claim` gives the next page its tree.
const slots: (Tree | undefined)[] = new Array<Tree | undefined>(SLOT_COUNT).fill(undefined);
let lastTag = -1;
/** Columns of a page let go, ready for the next page. */
let spare: Tree | undefined;

/** The tree a handle belongs to; an error for a page no longer kept. */
export function treeOf(handle: number): Tree {
  const tag = handle >>> ID_BITS;
  const tree = slots[tag % SLOT_COUNT];
  if (tree === undefined || tree.tag !== tag) throw new Error(`a node of a page parsed more than ${SLOT_COUNT} pages ago: its tree is no longer kept`);
  return tree;
}

function grown<T extends Uint8Array | Int8Array | Int32Array>(old: T, next: T): T {
  next.set(old);
  return next;
}
