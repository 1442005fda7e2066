/**
 * `<ref name=a>…</ref>`, `<nowiki>…</nowiki>`, `<gallery>…`: wikiparser-node's ExtToken and the
 * tag pairs it shares with `<includeonly>` (src/tagPair/ext.js, index.js, include.js). Children:
 * the attributes (`ext-attrs`) and the content, whose kind the tag decides: wikitext read by every
 * stage (`<ref>`, `<poem>` …, type `ext-inner`), references' list of `<ref>`s, a gallery's
 * lines, or one literal text (`<nowiki>`, `<math>`, and every tag the library does not read).
 *
 * The library inserts the pair into `accum` at its attributes' place, after both were made, so
 * a pair's marker (taken before) points at the pair and every token made for its content sits one
 * place further than when it was made: the markers those contents hold count on that shift.
 */
import type { Config } from 'wikiparser-node';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';

/** The configuration's fields the library adds for extension tags' contents. */
type TagConfig = Config & { excludes: string[]; inExt?: boolean };
import { AstText, PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { AttributesToken } from './attributes.js';
import { GalleryToken } from './gallery.js';
import { NoincludeToken } from './hidden.js';

/** Tags whose content is wikitext read by all stages, with what each leaves out. */
const WIKITEXT_CONTENT = new Set(['indicator', 'poem', 'ref', 'option', 'combooption', 'tab', 'tabs', 'poll', 'seo', 'langconvert', 'phonos']);

const TAG_CONFIGS = new WeakMap<Config, Map<string, TagConfig>>();

/**
 * The configuration a tag's content is read with: the outer one without the tag among the
 * extension tags (and what the tag leaves out), made once per configuration and tag name, not
 * once per tag: the content token keeps it for the whole parse, and a page has hundreds of
 * `<ref>`s. Never changed once made.
 */
function tagConfig(outer: Config, name: string): TagConfig {
  let byName = TAG_CONFIGS.get(outer);
  if (byName === undefined) {
    byName = new Map();
    TAG_CONFIGS.set(outer, byName);
  }
  let config = byName.get(name);
  if (config === undefined) {
    const excludes = [...((outer as TagConfig).excludes ?? [])];
    if (name === 'poem' || name === 'references') excludes.push('heading');
    else if (name === 'langconvert') excludes.push('list');
    const ext = outer.ext.filter((e) => e !== name && (name !== 'tab' || e !== 'tabs'));
    config = { ...outer, ext, excludes, inExt: true };
    byName.set(name, config);
  }
  return config;
}

abstract class TagPairToken extends Token {
  /** `undefined` for `<tag/>`; otherwise the closing tag as written (`''` when it is missing). */
  readonly closingTag: string | undefined;
  readonly opening: string;

  protected constructor(type: TokenTypes, opening: string, attrs: Token | AstText, inner: Token | AstText, closing: string | undefined, state: ParseState) {
    super(type, state);
    state.accum.pop();
    this.name = opening.toLowerCase();
    this.opening = opening;
    this.closingTag = closing;
    this.append(attrs, inner);
    // Searched from the end, where the attributes were made just before (each token is in
    // `accum` once): from the start, the search read the whole `accum` for every tag.
    const at = attrs instanceof Token ? state.accum.lastIndexOf(attrs) : -1;
    state.accum.splice(at === -1 ? state.accum.length : at, 0, this);
  }

  get selfClosing(): boolean {
    return this.closingTag === undefined;
  }

  get closed(): boolean {
    return this.closingTag !== '';
  }

  override toString(): string {
    const attrs = String(this.childNodes[0]);
    if (this.closingTag === undefined) return `<${this.opening}${attrs}/>`;
    return `<${this.opening}${attrs}>${String(this.childNodes[1])}${this.closingTag === '' ? '' : `</${this.closingTag}>`}`;
  }

  override text(): string {
    const attrs = this.childNodes[0]!.text();
    if (this.closingTag === undefined) return `<${this.opening}${attrs}/>`;
    return `<${this.opening}${attrs}>${this.childNodes[1]!.text()}${this.closingTag === '' ? '' : `</${this.closingTag}>`}`;
  }
}

/** A token with one literal text (`<nowiki>`'s content, `<math>`'s TeX …): NowikiToken. */
class LiteralInner extends Token {
  constructor(text: string | undefined, name: string, state: ParseState) {
    super('ext-inner', state);
    this.name = name;
    this.append(new AstText(text ?? ''));
  }
}

/**
 * `<pre>`'s content: literal, but `<nowiki>` and `</nowiki>` pairs in it are tags that show
 * nothing (src/pre.js), and the conversion stage reads it (the library's `isPlain`, from
 * MAX_STAGE - 1).
 */
class PreInner extends PlainToken {
  constructor(text: string | undefined, state: ParseState, config: Config) {
    let wikitext = text;
    if (wikitext) {
      const opening = /<nowiki>/giu;
      const closingTag = /<\/nowiki>/giu;
      const length = '<nowiki>'.length;
      let i = opening.exec(wikitext);
      if (i) closingTag.lastIndex = i.index + length;
      let j = closingTag.exec(wikitext);
      let lastIndex = 0;
      let str = '';
      while (i && j) {
        new NoincludeToken(i[0], state);
        new NoincludeToken(j[0], state);
        const n = state.accum.length;
        str += `${wikitext.slice(lastIndex, i.index)}\0${n - 1}n\x7F${wikitext.slice(i.index + length, j.index)}\0${n}n\x7F`;
        lastIndex = j.index + length + 1;
        opening.lastIndex = lastIndex;
        i = opening.exec(wikitext);
        if (i) closingTag.lastIndex = i.index + length;
        j = closingTag.exec(wikitext);
      }
      wikitext = str + wikitext.slice(lastIndex);
    }
    super('ext-inner', state);
    this.name = 'pre';
    if (wikitext !== undefined) {
      this.raw = wikitext;
      this.config = config;
      this.stage = 10;
    }
  }
}

/**
 * Reads `<references>`' content with stages 0 and 1 (comments, tags, templates): passed in by
 * the stage that makes extension tags (../stages/comment-and-ext.ts), which this module's
 * tokens are made by.
 */
export type ReadNested = (text: string, state: ParseState) => string;

/**
 * `<references>`' content: its comments, tags and templates, each other run of text a token that
 * shows nothing (src/nested.js). Read by no later stage.
 */
class ReferencesInner extends Token {
  constructor(text: string | undefined, state: ParseState, readNested: ReadNested) {
    let wikitext = text;
    const placeholder = state.accum.length;
    // The library reserves the place its own token takes later in `accum`.
    state.accum.push(undefined as unknown as Token);
    if (wikitext) wikitext = readNested(wikitext, state);
    state.accum.splice(placeholder, 1);
    if (wikitext) {
      wikitext = wikitext.replace(/(^|\0\d+.\x7F)([^\0]+)(?=$|\0\d+.\x7F)/gu, (_, lead: string, substr: string) => {
        new NoincludeToken(substr, state);
        return `${lead}\0${state.accum.length}n\x7F`;
      });
    }
    super('ext-inner', state);
    this.name = 'references';
    // `<references/>` has no content: no child, as the library's token made without text.
    if (wikitext !== undefined) this.append(new AstText(wikitext));
  }
}

export class ExtToken extends TagPairToken {
  declare type: 'ext';
  declare name: string;

  /** Typed for the door: this token's last child is always a token. */
  override get lastChild(): Token {
    return this.childNodes[this.childNodes.length - 1] as Token;
  }

  constructor(opening: string, attr: string | undefined, inner: string | undefined, closing: string | undefined, state: ParseState, readNested: ReadNested) {
    const name = opening.toLowerCase();
    const attrs = new AttributesToken(!attr || /^\s/u.test(attr) ? attr : ` ${attr}`, 'ext-attrs', name, state);
    const outer = state.config;
    const config = tagConfig(outer, name);
    let content: Token;
    const readsAs = name === 'pre' && attrs.getAttr('format') === 'wikitext' ? 'wikitext' : name;
    if (readsAs === 'pre') content = new PreInner(inner, state, config);
    else if (readsAs === 'wikitext' || WIKITEXT_CONTENT.has(name)) {
      // `<ref/>` has no content token to read: the library's token without text.
      content = inner === undefined ? new PlainToken('ext-inner', state) : new PlainToken('ext-inner', state, inner, config);
    } else if (name === 'gallery') {
      state.config = config;
      try {
        content = new GalleryToken(inner, state);
      } finally {
        state.config = outer;
      }
    } else if (name === 'references') {
      state.config = config;
      try {
        content = new ReferencesInner(inner, state, readNested);
      } finally {
        state.config = outer;
      }
    } else content = new LiteralInner(inner, name, state);
    content.name = name;
    super('ext', opening, attrs, content, closing, state);
  }

  getAttr(key: string): string | true | undefined {
    return (this.childNodes[0] as AttributesToken).getAttr(key);
  }
}

/** `<includeonly>…</includeonly>` in an article: shown nowhere (src/tagPair/include.js). */
export class IncludeToken extends TagPairToken {
  constructor(opening: string, attr: string | undefined, inner: string | undefined, closing: string | undefined, state: ParseState) {
    // Texts, not tokens, in the library: no stage reads them.
    super('include', opening, new AstText(attr ?? ''), new AstText(inner ?? ''), inner === undefined ? closing : (closing ?? ''), state);
  }

  override text(): string {
    return '';
  }
}
