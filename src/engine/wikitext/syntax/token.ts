/**
 * The light syntax tree of the wikitext door: our own passes over the page (issue #23), shaped
 * like wikiparser-node's tree (same node types, names, children and text) so that the door's rules
 * read either, but with plain classes: no mixins, no events, no sealed keys, no title objects built
 * for every link. The parse mirrors wikiparser-node's design, stage by stage (./parse.ts): each
 * stage rewrites the text of every plain token, replacing what it recognises by a marker
 * `\0<index><kind>\x7F` that points into the shared `accum`, and the tree is built from the
 * markers once all stages ran.
 */
import type { Config } from 'wikiparser-node';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';

/** What every pass shares: the wiki's configuration (wikiparser-node's, from ../tree.ts) and the tokens met so far. */
export interface ParseState {
  /**
   * The configuration of the token being read: the page's, or an extension tag's content's
   * (wikiparser-node gives `<ref>`'s content a copy without `ref` among the tags, so a `<ref>`
   * inside reads as text). The driver sets it before each stage runs on a token; tokens made then
   * inherit it.
   */
  config: Config;
  /** Every token, in creation order; a marker's index points here. */
  readonly accum: Token[];
  /** Whether the page is read as transcluded (`<includeonly>` shown): never, for an article. */
  readonly include: boolean;
  /**
   * runStage's own record: the plain tokens with text of `accum[0 … scanned - 1]`, in creation
   * order, so that each stage reads them from a list of its own rather than asking every token.
   * Dropped once the stages ran (tokens keep the state, so it would live as long as the tree).
   */
  plain?: PlainToken[] | undefined;
  scanned?: number | undefined;
}

export type AstNodes = AstText | Token;

/**
 * A node's sibling, read from its parent's children at the node's own place: nodes keep their
 * place (`index`, set by appendAll, through which every child is added) rather than two sibling
 * links, one field fewer on every node of a tree that lives through the scavenges of a big page's
 * parse. Searching the parent's children instead (no field at all) made every question O(n): a
 * page of 40,000 templates, each asked whether it stands alone on its line, took 5.6 s instead
 * of 0.7 (test/wikitext/syntax/limits.test.ts).
 */
function sibling(node: AstNodes, offset: 1 | -1): AstNodes | undefined {
  return node.parentNode?.childNodes[node.index + offset];
}

const NO_CHILDREN: readonly AstNodes[] = Object.freeze([]);

/** A run of text: wikiparser-node's AstText. */
export class AstText {
  declare readonly type: 'text';
  declare parentNode: Token | undefined;
  /** Its place among its parent's children (see sibling). */
  declare index: number;
  declare data: string;
  constructor(data: string) {
    this.data = data;
    this.parentNode = undefined;
    this.index = 0;
  }
  get nextSibling(): AstNodes | undefined {
    return sibling(this, 1);
  }
  get previousSibling(): AstNodes | undefined {
    return sibling(this, -1);
  }
  get childNodes(): readonly AstNodes[] {
    return NO_CHILDREN;
  }
  get firstChild(): undefined {
    return undefined;
  }
  get lastChild(): undefined {
    return undefined;
  }
  get length(): number {
    return 0;
  }
  toString(): string {
    return this.data;
  }
  text(): string {
    return this.data;
  }
}
// On the prototype: one field fewer per text node.
(AstText.prototype as { type: string }).type = 'text';

/**
 * A token: what every token has. wikiparser-node's "plain" token, whose content the stages still
 * read, is PlainToken below.
 */
export class Token {
  // Fields declared, then assigned in the constructor in one order: one hidden class for every
  // token, and plain stores rather than the defining stores of class field initialisers
  // (with class field initialisers the whole tree took 1.51× as long: same-process A/B, corpus).
  /** One of wikiparser-node's token types, never `text`: comparing `type` tells a text from a token. */
  declare type: TokenTypes;
  /** The token's name where it has one (a template's normalised title, a tag's name, …). */
  declare name: string | undefined;
  declare childNodes: AstNodes[];
  declare parentNode: Token | undefined;
  /** Its place among its parent's children (see sibling). */
  declare index: number;
  /**
   * A plain token's wikitext with markers, until the build. Only a PlainToken holds one: every
   * other token reads `undefined` from the prototype (set below).
   */
  declare raw: string | undefined;

  constructor(type: TokenTypes, state: ParseState) {
    this.type = type;
    this.name = undefined;
    // The shared empty list until appendAll gives the token its own (children are only ever added
    // there): plain tokens stay without children until the build, and an array each would be
    // copied by every scavenge of a big page's parse.
    this.childNodes = NO_CHILDREN as AstNodes[];
    this.parentNode = undefined;
    this.index = 0;
    state.accum.push(this);
  }

  get firstChild(): AstNodes | undefined {
    return this.childNodes[0];
  }

  get lastChild(): AstNodes | undefined {
    return this.childNodes[this.childNodes.length - 1];
  }

  get length(): number {
    return this.childNodes.length;
  }

  /** Appends children, linking parents and siblings. */
  append(...nodes: AstNodes[]): void {
    this.appendAll(nodes);
  }

  get nextSibling(): AstNodes | undefined {
    return sibling(this, 1);
  }

  get previousSibling(): AstNodes | undefined {
    return sibling(this, -1);
  }

  /**
   * `append` for a list of any length (a page's top level: spread arguments would overflow the
   * stack). The caller gives the array away: a token without children takes it as its
   * `childNodes`. Children added to a token that has a few make a new array of their number
   * (`concat`) rather than `push` into the old one: most tokens have a few children, the first
   * `push` makes room for 16 or more, and the arrays live as long as the tree, so their size is
   * what the scavenges copy. A long list (a table's rows, added one by one) grows by `push`,
   * whose room grows with it, rather than by a copy per child.
   */
  appendAll(nodes: AstNodes[]): void {
    const { childNodes } = this;
    const base = childNodes.length;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      n.parentNode = this;
      n.index = base + i;
    }
    if (childNodes.length === 0) this.childNodes = nodes;
    else if (childNodes.length < 16) this.childNodes = childNodes.concat(nodes);
    else for (let i = 0; i < nodes.length; i++) childNodes.push(nodes[i]!);
  }

  /** The token's wikitext. Subclasses add their syntax (`{{`, `|`, …) where it is not a child. */
  toString(): string {
    if (this.raw !== undefined) return this.raw;
    let s = '';
    for (const c of this.childNodes) s += c.toString();
    return s;
  }

  /** wikiparser-node's plain text: the wikitext without comments and with tags as their text. */
  text(): string {
    if (this.raw !== undefined) return this.raw;
    let s = '';
    for (const c of this.childNodes) s += c.text();
    return s;
  }
}

(Token.prototype as { raw: string | undefined }).raw = undefined;

/**
 * wikiparser-node's plain token (root, parameter values, link texts, cells' contents…): one whose
 * content is wikitext that the later stages still read, held in `raw` (with markers) until the
 * build turns it into children. Its own class, so that no other token carries the fields the
 * stages need: the tree lives through the scavenges of a big page's parse, and its size is what
 * they copy.
 */
export class PlainToken extends Token {
  /** The configuration the stages read it with (see ParseState.config); undefined without `raw`. */
  declare config: Config | undefined;
  /**
   * The first stage that reads it (wikiparser-node's `setAttribute('stage', n)`): a heading's
   * title, made by the braces stage, is not read by it again.
   */
  declare stage: number;

  constructor(type: TokenTypes, state: ParseState, raw?: string, config: Config = state.config) {
    super(type, state);
    this.raw = raw;
    this.config = raw === undefined ? undefined : config;
    this.stage = 0;
  }
}

const MARKERS = /[\0\x7F]/;

/**
 * The children a text with markers stands for: wikiparser-node's `buildFromStr`. Empty pieces are
 * dropped; a text without any marker stays one text node, even an empty one.
 */
export function buildFromRaw(raw: string, accum: readonly Token[]): AstNodes[] {
  if (!raw.includes('\0')) return [new AstText(raw)];
  const parts = raw.split(MARKERS);
  const out: AstNodes[] = [];
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i]!;
    if (i % 2 === 0) {
      if (s.length > 0) out.push(new AstText(s));
      continue;
    }
    const token = accum[Number(s.slice(0, -1))];
    if (token === undefined) throw new Error(`wikitext syntax: no token for marker ${JSON.stringify(s)}`);
    out.push(token);
  }
  // Pushed, the array has room for 16 or more: the copy has just its children (see appendAll).
  return out.slice();
}

// Optional hook after the whole tree is built (wikiparser-node's `afterBuild`).
export interface Token {
  afterBuild?(): void;
}

/**
 * A stage of the parse (./stages): reads a plain token's `raw` and writes it back with markers of
 * the tokens it made.
 */
export type Stage = (token: PlainToken, state: ParseState) => void;

/** As the library: NULs and DELs are the markers' own characters; a CR ending a line goes. */
export const tidy = (wikitext: string): string => wikitext.replace(TIDY, '');
const TIDY = /[\0\x7F]|\r$/gm;

/**
 * One stage of the driver (./parse.ts): on `root`, then on every plain token of `accum` in
 * creation order, those the stage itself makes included, each with its own configuration.
 * The plain tokens met by earlier stages are read from `state.plain` (half of `accum`, and of
 * few classes, where `accum` holds tokens of some twenty); the tokens made since are then read
 * from `accum`, which only grows at its end meanwhile (a tag takes its place among the tokens made
 * for it, after the place being read), and their plain ones join the list. A plain token has its
 * text from its construction until the build: none gains one later.
 */
export function runStage(stage: Stage, n: number, root: PlainToken, state: ParseState, config: Config): void {
  state.config = config;
  stage(root, state);
  const { accum } = state;
  const plain = (state.plain ??= []);
  const known = plain.length;
  for (let i = 0; i < known; i++) {
    const t = plain[i]!;
    if (n < t.stage) continue;
    state.config = t.config!;
    stage(t, state);
  }
  for (let i = state.scanned ?? 0; i < accum.length; i++) {
    const t = accum[i]!;
    if (t.raw === undefined) continue;
    // Only a plain token holds text (Token#raw).
    const p = t as PlainToken;
    plain.push(p);
    if (n < p.stage) continue;
    state.config = p.config!;
    stage(p, state);
  }
  state.scanned = accum.length;
  state.config = config;
}
