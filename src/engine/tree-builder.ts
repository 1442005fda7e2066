/**
 * HTML text → the engine's tree (dom.ts), built straight from htmlparser2's `Tokenizer` events.
 *
 * Why not `parseDocument` (htmlparser2's `Parser` + domhandler)? Measured, CPU time:
 * - The Parser alone is quadratic in nesting depth. It keeps its open-element stack with
 *   `unshift`/`shift` and searches it whole (`indexOf` per end tag, `includes` per `<form>`):
 *   with no handler at all it takes 1.3 s for 50,000 nested `<span>`s, 11 s for 100,000, 33 s for
 *   200,000. A depth cap in front of it needs a second tokenizer (the former pre-scan), which can
 *   disagree with the real one: it read `<b title=a">` as opening a quoted value, and 400,000
 *   `<span>`s after that took 149 s. So the stack here is ours — push/pop, a count per open name
 *   so that an end tag matching nothing costs O(1) — and the cap applies to the very events the
 *   tokenizer emits: nothing is left to disagree about. Beyond MAX_NESTING open elements no node
 *   is made (their names stay on the stack, so end tags still match) and their text goes to the
 *   deepest kept element, as one text node.
 * - Speed. On the corpus (47.6 MB) parseDocument takes 1.56 s, the Parser with no handler
 *   0.59 s, the Tokenizer alone 0.39 s, and this builder 0.60 s: the Parser's own bookkeeping
 *   costs as much as building our whole tree, and domhandler's class nodes (a dozen own fields
 *   each) the rest. Nodes written straight into the tree's columns (tree-store.ts: numbers, and
 *   ranges of the page for texts and values), tag rules looked up once per tag, and recurring
 *   names reused rather than re-sliced keep it at the tokenizer's pace.
 * - Memory. Plain-object nodes (the builder's until November 2026) cost about 200 bytes a node of
 *   JavaScript heap, which every young collection during the page copied; the columns cost about
 *   45 bytes a node outside the heap, reused from page to page (docs/batch.md point (11)).
 *
 * Up to MAX_NESTING the tree is the one `parseDocument(html, { decodeEntities: true,
 * lowerCaseTags: true, lowerCaseAttributeNames: true })` builds: same implied end tags, void
 * elements, foreign-content names, `</p>` and `</br>` repairs, text merging, comments and CDATA
 * (the rules are data in html-rules.ts). test/engine/tree-builder.test.ts compares both trees.
 */
import { decodeHTMLAttribute } from 'entities';
import type { TokenizerCallbacks } from 'htmlparser2';
import { decodeEntities } from './entities.js';
import { InputTooComplexError } from './errors.js';
import { HTML, NAMESPACE_OF, OPEN_IMPLIES_CLOSE, RAW_TEXT_ELEMENTS, RCDATA_ELEMENTS, SVG, SVG_TAG_NAMES, VOID_ELEMENTS } from './html-rules.js';
import type { Namespace } from './html-rules.js';
import { ForwardingTokenizer } from './tokenizer.js';
import { ID_MASK, Kind, MAX_NODES, Tree } from './tree-store.js';

/**
 * Far above any real article (the corpus peaks at 37 levels) and low enough that no later
 * step meets a tree deeper than this; the walkers cap their own recursion lower (context.ts).
 */
export const MAX_NESTING = 2000;

/**
 * The page's tree (tree-store.ts); the document's handle is `tree.base + 1`. A page of more than
 * `maxNodes` nodes (MAX_NODES, all a handle can number) is refused with InputTooComplexError.
 */
export function buildTree(html: string, maxNesting = MAX_NESTING, maxNodes = MAX_NODES): Tree {
  const tree = Tree.claim(html);
  try {
    build(tree, html, maxNesting, maxNodes);
  } catch (error) {
    tree.release();
    throw error;
  }
  return tree;
}

function build(tree: Tree, html: string, maxNesting: number, maxNodes: number): void {
  const builder = new TreeBuilder(tree, html, maxNesting, maxNodes);
  // Character references are decoded here, once per text or attribute value, with the decoder the
  // tokenizer would use (entities, legacy mode for text, attribute mode for values), not by the
  // tokenizer: decoding, it visits every character through its state machine and calls back once
  // per reference (data-mw's JSON is mostly `&quot;`); without it, it skips to the next `<` or
  // quote. On the corpus the tokenizer alone takes 0.36 s instead of 0.67 s. The skip itself is
  // an indexOf here, not htmlparser2's charCodeAt loop (tokenizer.ts): the builder 30 % faster.
  const tokenizer = new ForwardingTokenizer({ decodeEntities: false }, builder);
  tokenizer.write(html);
  tokenizer.end();
  builder.finish();
}

/**
 * Attributes whose values recur by the thousand on a page (`class="reference"`, Parsoid's
 * `typeof`s): each distinct value is kept once per page, so that every element reads the same
 * string, hashed once, in the token lookups of dom.ts (`hasToken`, `someTokenIn`).
 */
const SHARED_VALUES: ReadonlySet<string> = new Set(['class', 'typeof', 'rel', 'role', 'property']);

/** Attributes of one start tag beyond which repeated names are looked up in a Set. */
const MANY_ATTRIBUTES = 16;

/** An element's text as the tokenizer reads it: markup and references, raw, or RCDATA. */
const enum TextMode {
  Markup,
  Raw,
  Rcdata,
}

/** What the builder knows of one tag name, looked up once per tag rather than once per rule. */
interface Tag {
  readonly name: string;
  /** The name's id in the tree (Tree.names). */
  readonly id: number;
  readonly kind: Kind.Tag | Kind.Script | Kind.Style;
  readonly void: boolean;
  /** The open elements a start tag of this name closes first (htmlparser2's `openImpliesClose`). */
  readonly closes: ReadonlySet<string> | undefined;
  readonly namespace: Namespace | undefined;
  /** How the tokenizer reads its text when it opens in HTML content (html-rules.ts). */
  readonly text: TextMode;
  /** How many elements of this name are open: an end tag with none open costs O(1). */
  open: number;
}

class TreeBuilder implements TokenizerCallbacks {
  /** Per parse, not per module: adversarial input can bring any number of distinct names. */
  private readonly tags = new Map<string, Tag>();
  /** The open elements, innermost last (htmlparser2's `Parser.stack`, reversed). */
  private readonly open: Tag[] = [];
  /** The kept node (id) of each open element, the document first; at most maxNesting + 1 long. */
  private readonly nodes: number[] = [];
  /**
   * The children (handles) of the open kept nodes, one after the other: those of `nodes[i]` start
   * at `starts[i]` and run to the next node's start (the last node's, to `kidCount`). Children are
   * only ever added to the innermost kept node, so this is a stack; a node's children move to the
   * tree's `kids`, side by side, when it closes.
   */
  private readonly kids: number[] = [];
  /** The slots of `kids` in use; past it lie stale entries, overwritten as children come. */
  private kidCount = 0;
  private readonly starts: number[] = [];
  /** The namespace stack; the base entry is never popped (htmlparser2's `foreignContext`). */
  private readonly namespaces: Namespace[] = [HTML];
  /** The start tag being read; undefined when it is ignored (a nested `<form>`). */
  private tag: Tag | undefined = undefined;
  /** Its attributes are being kept (false when the tag is ignored). */
  private collecting = false;
  /** Its first attribute's column, and whether it has an `id`. */
  private attrFrom = 0;
  private hasId = false;
  private attribName = '';
  /** The value being read: `html[valueStart, valueEnd)`, unless pieces of it lay apart (`joined`). */
  private valueStart = -1;
  private valueEnd = -1;
  private joined: string | undefined = undefined;
  /** It holds an `&`, so a character reference may need decoding. */
  private attribReference = false;
  /** The names of the start tag's attributes once it has MANY_ATTRIBUTES (`repeated`); reset by each tag. */
  private seen: Set<string> | undefined = undefined;
  /** Each distinct value of a SHARED_VALUES attribute, as the index of its string in the tree. */
  private readonly shared = new Map<string, number>();
  /**
   * The first `&` of the HTML at or after `referenceFrom` (the HTML's length when there is none).
   * Most text and attribute values hold none: one search of the HTML ahead answers for all of them
   * up to the next `&`, instead of a scan of each value (1.4 million of them in the corpus).
   */
  private nextReference = -1;
  private referenceFrom = 0;
  /** The text node (id) that further text joins, as domhandler merges adjacent text events; 0 for none. */
  private lastText = 0;

  constructor(
    private readonly tree: Tree,
    private readonly html: string,
    private readonly maxNesting: number,
    private readonly maxNodes: number,
  ) {
    // A first guess from the page's size, so that few pages grow the columns while being read.
    tree.reserve(Math.min(maxNodes, (html.length >> 5) + 64), (html.length >> 5) + 64);
    const root = this.newNode(Kind.Root);
    this.nodes.push(root);
    this.starts.push(0);
  }

  // Text and entities

  ontext(from: number, to: number): void {
    const start = this.index(from);
    const end = this.index(to);
    if (!this.holdsReference(start, end)) {
      this.appendText(start, end);
      return;
    }
    const text = this.html.slice(start, end);
    const tag = this.specialTag();
    if (tag === undefined) this.appendOwnText(decodeEntities(text));
    else if (tag.text === TextMode.Raw) this.appendText(start, end);
    else this.appendOwnText(decodeRcdata(text, tag.name));
  }

  /**
   * A position of the tokenizer's, as `slice` reads it: on some broken input (`</TEXTA/`) it
   * reports text from -1, which `html.slice(-1)` took from the end, and the tree keeps doing so.
   */
  private index(at: number): number {
    const length = this.html.length;
    return at < 0 ? Math.max(0, length + at) : Math.min(at, length);
  }

  /** `html[start, end)` holds an `&`. */
  private holdsReference(start: number, end: number): boolean {
    if (this.nextReference < start || start < this.referenceFrom) {
      const at = this.html.indexOf('&', start);
      this.nextReference = at < 0 ? this.html.length : at;
      this.referenceFrom = start;
    }
    return this.nextReference < end;
  }

  /**
   * The special element whose text is being read (`<script>`, `<title>`), if any: the tokenizer
   * makes one special when it opens in HTML content, and until its end tag no other element opens
   * or closes, so it is the innermost open element and the namespace below it the one it opened in.
   */
  private specialTag(): Tag | undefined {
    const open = this.open;
    const tag = open[open.length - 1];
    if (tag === undefined || tag.text === TextMode.Markup) return undefined;
    const namespaces = this.namespaces;
    const opened = namespaces[namespaces.length - (tag.namespace === undefined ? 1 : 2)];
    return opened === HTML ? tag : undefined;
  }

  /** Never called: the tokenizer leaves references to the builder (buildTree). */
  ontextentity(): void {}

  isInForeignContext(): boolean {
    return this.namespaces[this.namespaces.length - 1] !== HTML;
  }

  // Start tags

  onopentagname(start: number, end: number): void {
    this.openTag(this.readTag(start, end));
  }

  onattribname(start: number, end: number): void {
    this.attribName = lowerName(this.html, start, end);
  }

  onattribdata(from: number, to: number): void {
    const start = this.index(from);
    const end = this.index(to);
    if (this.valueStart < 0 && this.joined === undefined) {
      this.valueStart = start;
      this.valueEnd = end;
    } else if (this.joined === undefined && start === this.valueEnd) {
      this.valueEnd = end;
    } else {
      this.joined = (this.joined ?? this.html.slice(this.valueStart, this.valueEnd)) + this.html.slice(start, end);
    }
    if (this.holdsReference(start, end)) this.attribReference = true;
  }

  /** Never called, as ontextentity. */
  onattribentity(): void {}

  onattribend(): void {
    // The first of repeated attributes wins, as in the HTML spec.
    if (this.collecting && !this.repeated(this.attribName)) this.addAttribute(this.attribName);
    this.valueStart = -1;
    this.valueEnd = -1;
    this.joined = undefined;
    this.attribReference = false;
  }

  /**
   * The start tag being read has an attribute `name` already. Its few names are compared in place;
   * past MANY_ATTRIBUTES a Set answers, or a tag of a million attributes (an attack, not a page)
   * would cost a million squared comparisons.
   */
  private repeated(name: string): boolean {
    const tree = this.tree;
    const from = this.attrFrom;
    const to = tree.attrTotal;
    if (to - from < MANY_ATTRIBUTES) {
      for (let a = from; a < to; a++) if (tree.attrName[a] === name) return true;
      return false;
    }
    this.seen ??= new Set(tree.attrName.slice(from, to));
    return this.seen.has(name);
  }

  private addAttribute(name: string): void {
    const tree = this.tree;
    const at = tree.attrTotal;
    tree.reserve(0, at + 1);
    tree.attrName[at] = name;
    tree.attrTotal = at + 1;
    this.seen?.add(name);
    const shared = SHARED_VALUES.has(name);
    if (this.attribReference || this.joined !== undefined || shared) {
      let value = this.joined ?? (this.valueStart < 0 ? '' : this.html.slice(this.valueStart, this.valueEnd));
      if (this.attribReference) value = decodeHTMLAttribute(value);
      tree.valueStart[at] = shared ? this.sharedValue(value) : tree.own(value);
    } else if (this.valueStart < 0) {
      tree.valueStart[at] = 0;
      tree.valueEnd[at] = 0;
    } else {
      tree.valueStart[at] = this.valueStart;
      tree.valueEnd[at] = this.valueEnd;
    }
    if (name === 'id') this.hasId = true;
  }

  private sharedValue(value: string): number {
    let index = this.shared.get(value);
    if (index === undefined) {
      index = this.tree.own(value);
      this.shared.set(value, index);
    }
    return index;
  }

  onopentagend(): void {
    this.endOpenTag();
  }

  /** `<x/>`: self-closing only in foreign content; in HTML the slash is ignored. */
  onselfclosingtag(): void {
    if (this.isInForeignContext()) this.closeCurrentTag();
    else this.endOpenTag();
  }

  // End tags

  onclosetag(start: number, end: number): void {
    const tag = this.readTag(start, end);
    if (tag.void) {
      // `</br>` is a `<br>`; other void end tags are ignored.
      if (tag.name === 'br') {
        this.attrFrom = this.tree.attrTotal;
        this.hasId = false;
        this.appendElement(tag, false);
      }
      return;
    }
    if (tag.open > 0) {
      while (this.pop() !== tag);
    } else if (tag.name === 'p') {
      // A `</p>` with no open `<p>` makes an empty one.
      this.openTag(tag);
      this.closeCurrentTag();
    }
  }

  // Comments, CDATA, doctype

  oncomment(start: number, end: number, endOffset: number): void {
    this.appendData(Kind.Comment, this.index(start), this.index(end - endOffset));
  }

  /** HTML mode knows CDATA only in foreign content; elsewhere it is a comment. */
  oncdata(start: number, end: number, endOffset: number): void {
    if (this.isInForeignContext()) this.appendText(this.index(start), this.index(end - endOffset));
    else this.appendData(Kind.Comment, this.tree.own(`[CDATA[${this.html.slice(start, end - endOffset)}]]`), 0);
  }

  ondeclaration(start: number, end: number): void {
    const id = this.appendData(Kind.Directive, this.tree.own(`!${this.html.slice(start, end)}`), 0);
    this.tree.name[id] = this.tree.nameId('!doctype');
  }

  /** Reached only in XML mode, which this builder does not use. */
  onprocessinginstruction(): void {}

  /** Elements still open at the end hang in the tree already; `finish` gives them their children. */
  onend(): void {}

  /** After the last event: every node still open, the document last, gets its children. */
  finish(): void {
    while (this.nodes.length > 0) this.closeNode();
  }

  // The open-element stack

  private readTag(start: number, end: number): Tag {
    return this.tagOf(this.adjustName(lowerName(this.html, start, end)));
  }

  /** Foreign content restores SVG's camel case; HTML reads `<image>` as `<img>`. */
  private adjustName(name: string): string {
    const namespaces = this.namespaces;
    const namespace = namespaces[namespaces.length - 1];
    if (namespace === SVG) return SVG_TAG_NAMES.get(name) ?? name;
    // An end tag of an SVG element inside an integration point of its own (`</foreignObject>`).
    if (namespaces.length > 1) {
      const adjusted = SVG_TAG_NAMES.get(name);
      if (adjusted !== undefined && this.tagOf(adjusted).open > 0) return adjusted;
    }
    if (namespace === HTML && name === 'image') return 'img';
    return name;
  }

  private tagOf(name: string): Tag {
    let tag = this.tags.get(name);
    if (tag === undefined) {
      tag = {
        name,
        id: this.tree.nameId(name),
        kind: name === 'script' ? Kind.Script : name === 'style' ? Kind.Style : Kind.Tag,
        void: VOID_ELEMENTS.has(name),
        closes: OPEN_IMPLIES_CLOSE.get(name),
        namespace: NAMESPACE_OF.get(name),
        text: RAW_TEXT_ELEMENTS.has(name) ? TextMode.Raw : RCDATA_ELEMENTS.has(name) ? TextMode.Rcdata : TextMode.Markup,
        open: 0,
      };
      this.tags.set(name, tag);
    }
    return tag;
  }

  /** A start tag's name: implied end tags, then the stack; its node comes with its attributes. */
  private openTag(tag: Tag): void {
    // A second `<form>` while one is open is ignored whole, as the HTML spec does.
    if (tag.name === 'form' && tag.open > 0) {
      this.tag = undefined;
      this.collecting = false;
      return;
    }
    this.tag = tag;
    const closes = tag.closes;
    if (closes !== undefined) {
      const open = this.open;
      while (open.length > 0 && closes.has(open[open.length - 1]!.name)) this.pop();
    }
    if (!tag.void) this.push(tag);
    this.collecting = true;
    this.attrFrom = this.tree.attrTotal;
    this.hasId = false;
    this.seen = undefined;
  }

  /** The `>` of a start tag: its element joins the tree, unless it lies too deep. */
  private endOpenTag(): void {
    const tag = this.tag;
    const collecting = this.collecting;
    this.tag = undefined;
    this.collecting = false;
    if (tag === undefined || !collecting) return;
    if (tag.void) this.appendElement(tag, false);
    else if (this.open.length <= this.maxNesting) this.appendElement(tag, true);
    else this.tree.attrTotal = this.attrFrom; // no node: its attributes go too
  }

  /** A start tag that closes itself (`<path/>` in SVG, or the repaired `</p>`). */
  private closeCurrentTag(): void {
    const tag = this.tag;
    this.endOpenTag();
    const open = this.open;
    if (open.length > 0 && open[open.length - 1] === tag) this.pop();
  }

  private push(tag: Tag): void {
    this.open.push(tag);
    tag.open++;
    if (tag.namespace !== undefined) this.namespaces.push(tag.namespace);
  }

  private pop(): Tag {
    const tag = this.open.pop()!;
    tag.open--;
    if (tag.namespace !== undefined) this.namespaces.pop();
    // Elements beyond maxNesting had no node; closing one neither moves nor splits the text.
    if (this.nodes.length > this.open.length + 1) {
      this.closeNode();
      this.lastText = 0;
    }
    return tag;
  }

  // Tree construction

  /** A new node of `kind`, its id; it is nobody's child yet. */
  private newNode(kind: Kind): number {
    const tree = this.tree;
    const id = tree.nodeCount + 1;
    if (id > this.maxNodes) {
      const what = `nodes of the HTML tree (elements, texts, comments); limit "nodes": ${this.maxNodes}, all the tree can number`;
      // TextEncoder rather than Buffer: the explorer runs this module in the browser too.
      throw new InputTooComplexError('nodes', this.maxNodes, new TextEncoder().encode(this.html).length, what);
    }
    tree.reserve(id, 0);
    tree.nodeCount = id;
    tree.kind[id] = kind;
    tree.name[id] = -1;
    tree.parent[id] = 0;
    tree.first[id] = 0;
    tree.count[id] = 0;
    tree.attrs[id] = 0;
    tree.attrCount[id] = 0;
    tree.noise[id] = 0;
    return id;
  }

  /** The element of the tag just read, with the attributes gathered since `attrFrom`. */
  private appendElement(tag: Tag, container: boolean): void {
    const tree = this.tree;
    const id = this.newNode(tag.kind);
    tree.name[id] = tag.id;
    tree.attrs[id] = this.attrFrom;
    tree.attrCount[id] = tree.attrTotal - this.attrFrom;
    this.append(id);
    if (this.hasId) tree.withId.push(tree.base + id);
    if (container) {
      this.nodes.push(id);
      this.starts.push(this.kidCount);
    }
  }

  /** The innermost kept node is done: its children leave the stack for the tree's `kids`, side by side. */
  private closeNode(): void {
    const id = this.nodes.pop()!;
    const start = this.starts.pop()!;
    const tree = this.tree;
    const count = this.kidCount - start;
    const at = tree.kidCount;
    tree.first[id] = at;
    tree.count[id] = count;
    const kids = this.kids;
    for (let i = 0; i < count; i++) {
      const kid = kids[start + i]!;
      tree.kids[at + i] = kid;
      tree.slot[kid & ID_MASK] = at + i;
    }
    tree.kidCount = at + count;
    this.kidCount = start;
  }

  /** Text as written, `html[start, end)`. */
  private appendText(start: number, end: number): void {
    if (this.lastText !== 0) this.joinText(this.html.slice(start, end));
    else this.lastText = this.appendData(Kind.Text, start, end);
  }

  /** Text of its own: decoded, or joined. */
  private appendOwnText(data: string): void {
    if (this.lastText !== 0) this.joinText(data);
    else this.lastText = this.appendData(Kind.Text, this.tree.own(data), 0);
  }

  /** Adjacent text joins the text node before it, as domhandler does. */
  private joinText(data: string): void {
    const tree = this.tree;
    const last = this.lastText;
    const start = tree.start[last]!;
    // Once the text has a string of its own, later joins extend that string in place.
    if (start < 0) tree.strings[~start] += data;
    else tree.start[last] = tree.own(tree.read(start, tree.end[last]!) + data);
  }

  /** A text, comment or directive node over the range `[start, end)` (tree-store.ts); its id. */
  private appendData(kind: Kind.Text | Kind.Comment | Kind.Directive, start: number, end: number): number {
    const id = this.newNode(kind);
    this.tree.start[id] = start;
    this.tree.end[id] = end;
    this.append(id);
    return id;
  }

  private append(id: number): void {
    const top = this.nodes.length - 1;
    this.tree.parent[id] = this.tree.base + this.nodes[top]!;
    this.kids[this.kidCount++] = this.tree.base + id;
    this.lastText = 0;
  }
}

/**
 * The text of an RCDATA element (`<title>`) decoded as the tokenizer decodes it. While it matches
 * the end tag (`</title`, letters in any case) it starts no reference: the `&` of `<&copy` or
 * `</ti&amp;` stays as written. Elsewhere every `&` may start one. Rare in articles, so plain code.
 */
function decodeRcdata(text: string, name: string): string {
  if (!text.includes('&')) return text;
  const end = `</${name}`;
  let out = '';
  let from = 0;
  let matched = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A whole end tag not followed by its end is text: matching starts over. The comparison is
    // the tokenizer's own, `c | 0x20`, quirks included.
    if (matched === end.length) matched = 0;
    if ((c | 0x20) === end.charCodeAt(matched)) {
      matched++;
    } else if (matched > 0) {
      if (c === 38 /* & */) {
        // Written as is; what lies between it and the previous such `&` is decoded.
        out += `${decodeEntities(text.slice(from, i))}&`;
        from = i + 1;
      }
      matched = c === 60 /* < */ ? 1 : 0;
    }
  }
  return out + decodeEntities(text.slice(from));
}

/**
 * Recently read tag and attribute names, lower-cased: the same few dozen names recur thousands of
 * times per article, and reusing one string saves the slice, the lower-casing and the hashing
 * that every Map lookup and property store would otherwise redo. Pure memoization, so sharing it
 * between parses is safe; it holds at most NAME_SLOTS short strings.
 */
const NAME_SLOTS = 1024;
const MAX_CACHED_NAME = 32;
const names: (string | undefined)[] = new Array<string | undefined>(NAME_SLOTS).fill(undefined);

function lowerName(html: string, start: number, end: number): string {
  const length = end - start;
  if (length === 0 || length > MAX_CACHED_NAME) return html.slice(start, end).toLowerCase();
  // First, middle and last letters: first and last alone put `style` and `scope`, `title` and
  // `table` in one slot, and each pair took turns evicting the other thousands of times a page.
  const slot = (length * 97 + html.charCodeAt(start) * 31 + html.charCodeAt(start + (length >> 1)) * 7 + html.charCodeAt(end - 1)) & (NAME_SLOTS - 1);
  const cached = names[slot];
  // Exact match only: a name written in upper case takes the slow path, which is still correct.
  if (cached !== undefined && cached.length === length && html.startsWith(cached, start)) return cached;
  const name = internalized(html.slice(start, end).toLowerCase());
  names[slot] = name;
  return name;
}

/**
 * The one copy of `name` V8 keeps for property keys and literals: attribute names are compared
 * with literals (dom.ts `attr`), and two such strings compare by pointer. Once per name read into
 * the cache above.
 */
function internalized(name: string): string {
  return Object.keys({ [name]: 0 })[0]!;
}
