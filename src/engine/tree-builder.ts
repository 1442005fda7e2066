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
 *   each) the rest. Plain-object nodes with the fields the engine reads, tag rules looked up once
 *   per tag, and recurring names reused rather than re-sliced keep it at the tokenizer's pace.
 *
 * Up to MAX_NESTING the tree is the one `parseDocument(html, { decodeEntities: true,
 * lowerCaseTags: true, lowerCaseAttributeNames: true })` builds: same implied end tags, void
 * elements, foreign-content names, `</p>` and `</br>` repairs, text merging, comments and CDATA
 * (the rules are data in html-rules.ts). test/engine/tree-builder.test.ts compares both trees.
 */
import { decodeHTMLAttribute } from 'entities';
import type { TokenizerCallbacks } from 'htmlparser2';
import type { ChildStorage, DocumentNode, ElementNode, ParentStorage, TextNode } from './dom-nodes.js';
import { decodeEntities } from './entities.js';
import { HTML, NAMESPACE_OF, OPEN_IMPLIES_CLOSE, RAW_TEXT_ELEMENTS, RCDATA_ELEMENTS, SVG, SVG_TAG_NAMES, VOID_ELEMENTS } from './html-rules.js';
import type { Namespace } from './html-rules.js';
import { ForwardingTokenizer } from './tokenizer.js';

/**
 * Far above any real article (the corpus peaks at 37 levels) and low enough that no later
 * step meets a tree deeper than this; the walkers cap their own recursion lower (context.ts).
 */
export const MAX_NESTING = 2000;

export function buildTree(html: string, maxNesting = MAX_NESTING): DocumentNode {
  const builder = new TreeBuilder(html, maxNesting);
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
  return builder.root;
}

const UNSET_CHILDREN: ChildStorage[] = [];

/** An element's text as the tokenizer reads it: markup and references, raw, or RCDATA. */
const enum TextMode {
  Markup,
  Raw,
  Rcdata,
}

/** What the builder knows of one tag name, looked up once per tag rather than once per rule. */
interface Tag {
  readonly name: string;
  readonly type: ElementNode['type'];
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
  readonly root: DocumentNode = { type: 'root', children: [], parent: null, prev: null, next: null, ids: [], references: undefined };
  /** Per parse, not per module: adversarial input can bring any number of distinct names. */
  private readonly tags = new Map<string, Tag>();
  /** The open elements, innermost last (htmlparser2's `Parser.stack`, reversed). */
  private readonly open: Tag[] = [];
  /** The kept node of each open element, the root first; at most maxNesting + 1 long. */
  private readonly nodes: ParentStorage[] = [this.root];
  /**
   * The children of the open kept nodes, one after the other: those of `nodes[i]` start at
   * `starts[i]` and run to the next node's start (the last node's, to `kidCount`). Children are
   * only ever added to the innermost kept node, so this is a stack; a node gets its `children`
   * array when it closes, sliced out at its exact size. Pushing onto each element's own array
   * instead gave every parent a backing store of 17 slots at its first child (V8's growth step),
   * most of it empty: that was the largest allocation of a parse.
   */
  private readonly kids: ChildStorage[] = [];
  /** The slots of `kids` in use; past it lie stale entries, overwritten as children come. */
  private kidCount = 0;
  private readonly starts: number[] = [0];
  /** The namespace stack; the base entry is never popped (htmlparser2's `foreignContext`). */
  private readonly namespaces: Namespace[] = [HTML];
  /** The start tag being read; undefined when it is ignored (a nested `<form>`). */
  private tag: Tag | undefined = undefined;
  /** Its attributes; null when the tag is ignored. */
  private attribs: Record<string, string> | null = null;
  private attribName = '';
  private attribValue = '';
  /** It holds an `&`, so a character reference may need decoding. */
  private attribReference = false;
  /**
   * The first `&` of the HTML at or after `referenceFrom` (the HTML's length when there is none).
   * Most text and attribute values hold none: one search of the HTML ahead answers for all of them
   * up to the next `&`, instead of a scan of each value (1.4 million of them in the corpus).
   */
  private nextReference = -1;
  private referenceFrom = 0;
  /** The text node that further text joins, as domhandler merges adjacent text events. */
  private lastText: TextNode | null = null;

  constructor(
    private readonly html: string,
    private readonly maxNesting: number,
  ) {}

  // Text and entities

  ontext(start: number, end: number): void {
    const text = this.html.slice(start, end);
    if (!this.holdsReference(start, end)) {
      this.appendText(text);
      return;
    }
    const tag = this.specialTag();
    if (tag === undefined) this.appendText(decodeEntities(text));
    else this.appendText(tag.text === TextMode.Raw ? text : decodeRcdata(text, tag.name));
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

  onattribdata(start: number, end: number): void {
    this.attribValue += this.html.slice(start, end);
    if (this.holdsReference(start, end)) this.attribReference = true;
  }

  /** Never called, as ontextentity. */
  onattribentity(): void {}

  onattribend(): void {
    // The first of repeated attributes wins, as in the HTML spec.
    if (this.attribs !== null && !Object.hasOwn(this.attribs, this.attribName)) {
      const value = this.attribValue;
      this.attribs[this.attribName] = this.attribReference ? decodeHTMLAttribute(value) : value;
    }
    this.attribValue = '';
    this.attribReference = false;
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
      if (tag.name === 'br') this.appendElement(tag, {}, false);
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
    this.appendData('comment', this.html.slice(start, end - endOffset));
  }

  /** HTML mode knows CDATA only in foreign content; elsewhere it is a comment. */
  oncdata(start: number, end: number, endOffset: number): void {
    const value = this.html.slice(start, end - endOffset);
    if (this.isInForeignContext()) this.appendText(value);
    else this.appendData('comment', `[CDATA[${value}]]`);
  }

  ondeclaration(start: number, end: number): void {
    this.append({ type: 'directive', name: '!doctype', data: `!${this.html.slice(start, end)}`, parent: null, prev: null, next: null });
  }

  /** Reached only in XML mode, which this builder does not use. */
  onprocessinginstruction(): void {}

  /** Elements still open at the end hang in the tree already; `finish` gives them their children. */
  onend(): void {}

  /** After the last event: every node still open, the root last, gets its children. */
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
        type: name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag',
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
      return;
    }
    this.tag = tag;
    const closes = tag.closes;
    if (closes !== undefined) {
      const open = this.open;
      while (open.length > 0 && closes.has(open[open.length - 1]!.name)) this.pop();
    }
    if (!tag.void) this.push(tag);
    this.attribs = {};
  }

  /** The `>` of a start tag: its element joins the tree, unless it lies too deep. */
  private endOpenTag(): void {
    const tag = this.tag;
    const attribs = this.attribs;
    this.tag = undefined;
    if (tag === undefined || attribs === null) return;
    this.attribs = null;
    if (tag.void) this.appendElement(tag, attribs, false);
    else if (this.open.length <= this.maxNesting) this.appendElement(tag, attribs, true);
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
      this.lastText = null;
    }
    return tag;
  }

  // Tree construction

  private appendElement(tag: Tag, attribs: Record<string, string>, container: boolean): void {
    // A container's children are set when it closes (closeNode); until then it holds the shared
    // placeholder, which nothing outside the builder ever sees.
    const children = container ? UNSET_CHILDREN : [];
    const el: ElementNode = { type: tag.type, name: tag.name, attribs, children, parent: null, prev: null, next: null, noise: undefined };
    this.append(el);
    if (attribs.id !== undefined) this.root.ids.push(el);
    if (container) {
      this.nodes.push(el);
      this.starts.push(this.kidCount);
    }
  }

  /** The innermost kept node is done: its children leave the stack for an array of their own. */
  private closeNode(): void {
    const node = this.nodes.pop()!;
    const start = this.starts.pop()!;
    node.children = this.kids.slice(start, this.kidCount);
    this.kidCount = start;
  }

  private appendText(data: string): void {
    const last = this.lastText;
    if (last !== null) {
      last.data += data;
      return;
    }
    const text: TextNode = { type: 'text', data, parent: null, prev: null, next: null };
    this.append(text);
    this.lastText = text;
  }

  private appendData(type: 'comment', data: string): void {
    this.append({ type, data, parent: null, prev: null, next: null });
  }

  private append(node: ChildStorage): void {
    const top = this.nodes.length - 1;
    const kids = this.kids;
    const n = this.kidCount;
    node.parent = this.nodes[top]!;
    if (n > this.starts[top]!) {
      const prev = kids[n - 1]!;
      node.prev = prev;
      prev.next = node;
    }
    kids[n] = node;
    this.kidCount = n + 1;
    this.lastText = null;
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
  const slot = (length * 97 + html.charCodeAt(start) * 31 + html.charCodeAt(end - 1)) & (NAME_SLOTS - 1);
  const cached = names[slot];
  // Exact match only: a name written in upper case takes the slow path, which is still correct.
  if (cached !== undefined && cached.length === length && html.startsWith(cached, start)) return cached;
  const name = html.slice(start, end).toLowerCase();
  names[slot] = name;
  return name;
}
