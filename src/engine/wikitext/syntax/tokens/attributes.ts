/**
 * The attributes of an extension tag, an HTML tag or a table part: wikiparser-node's
 * AttributesToken and AttributeToken (src/attributes.js, src/attribute.js). An `*-attrs` token
 * holds `*-attr` tokens (a key, a value, the `=` and quotes between them) and, between them, the
 * `*-attr-dirty` runs the library does not read as attributes.
 */
import type { Config } from 'wikiparser-node';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';
import { AstText, PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';

export type AttributesType = 'ext-attrs' | 'html-attrs' | 'table-attrs';
export type AttributeType = 'ext-attr' | 'html-attr' | 'table-attr';

/** The library's attribute pattern (src/attributes.js): key, `=` with spaces and comments, quoted or bare value. */
const ATTR = /([^\s/](?:(?!\0\d+~\x7F)[^\s/=])*)(?:((?:\s(?:\s|\0\d+[cn]\x7F)*)?(?:=|\0\d+~\x7F)(?:\s|\0\d+[cn]\x7F)*)(?:(["'])([\s\S]*?)(\3|$)|(\S*)))?/gu;
/** A valid key, once its comments are gone. */
const VALID_KEY = /^(?:[\w:]|\0\d+t\x7F)(?:[\w:.-]|\0\d+t\x7F)*$/u;
const COMMENT_MARKERS = /\0\d+[cn]\x7F/gu;
const MARKER = /\0(\d+)\D\x7F/gu;
const LEADING_EXT = /^\s/u;
const LEADING_HTML = /^[/\s]/u;

/** The stage a plain `attr-value` is first read at (the library's `MAX_STAGE - 1`: only the converter). */
const TITLE_VALUE_STAGE = 10;
/** What the library leaves out when it reads some extension attributes' values as wikitext. */
const RICH_VALUE_EXCLUDES: readonly string[] = ['heading', 'html', 'table', 'hr', 'list'];

type ExcludingConfig = Config & { excludes?: readonly string[] };

/** A configuration with RICH_VALUE_EXCLUDES added to its `excludes`, made once per configuration. */
const RICH_CONFIGS = new WeakMap<Config, Config>();

function richValueConfig(config: Config): Config {
  let rich = RICH_CONFIGS.get(config);
  if (rich === undefined) {
    const excludes = (config as ExcludingConfig).excludes ?? [];
    rich = { ...config, excludes: [...excludes, ...RICH_VALUE_EXCLUDES] } as ExcludingConfig;
    RICH_CONFIGS.set(config, rich);
  }
  return rich;
}

/** Whether the configuration the stage reads `what` ('html', 'table', 'hr', 'heading') with excludes it (wikiparser-node's `config.excludes`). */
export function isExcluded(config: Config, what: string): boolean {
  return (config as ExcludingConfig).excludes?.includes(what) === true;
}

/** A run of text that holds no token of its own, split at the build if markers are in it (AtomToken). */
class AtomToken extends Token {
  constructor(type: TokenTypes, state: ParseState, text: string | undefined) {
    super(type, state);
    if (text !== undefined) this.append(new AstText(text));
  }
}

/** One attribute: wikiparser-node's AttributeToken. Children: `attr-key`, `attr-value`. */
export class AttributeToken extends Token {
  declare name: string;
  /** The tag's name (the parent's name once built). */
  tag: string;
  /** What stands between key and value: `=` with its spaces and comments; '' for a bare attribute. */
  equal: string;
  readonly quoteStart: string;
  readonly quoteEnd: string;
  /** The tokens, while `equal` still holds markers (comments around `=`). */
  private accum: readonly Token[] | undefined = undefined;

  constructor(
    type: AttributeType,
    tag: string,
    key: string,
    quoteStart: string | undefined,
    quoteEnd: string | undefined,
    state: ParseState,
    equal: string | undefined,
    value: string | undefined,
  ) {
    const keyToken = new AtomToken('attr-key', state, key);
    let valueToken: Token;
    if (key === 'title' || (tag === 'img' && key === 'alt')) {
      const plain = value === undefined ? new PlainToken('attr-value', state) : new PlainToken('attr-value', state, value);
      plain.stage = TITLE_VALUE_STAGE;
      valueToken = plain;
    } else if (
      (tag === 'gallery' && key === 'caption') ||
      (tag === 'ref' && key === 'details') ||
      ((tag === 'mapframe' || tag === 'maplink') && key === 'text') ||
      (tag === 'choose' && (key === 'before' || key === 'after'))
    ) {
      const plain = value === undefined ? new PlainToken('attr-value', state) : new PlainToken('attr-value', state, value, richValueConfig(state.config));
      plain.stage = 1;
      valueToken = plain;
    } else {
      valueToken = new AtomToken('attr-value', state, value);
    }
    super(type, state);
    this.append(keyToken, valueToken);
    this.tag = tag;
    this.equal = equal ?? '';
    this.quoteStart = quoteStart ?? '';
    this.quoteEnd = quoteEnd ?? '';
    this.name = key.replace(COMMENT_MARKERS, '').trim().toLowerCase();
    if (this.equal.includes('\0')) this.accum = state.accum;
  }

  override afterBuild(): void {
    if (this.accum !== undefined) {
      const accum = this.accum;
      this.equal = this.equal.replace(MARKER, (_, i: string) => String(accum[Number(i)]));
      this.accum = undefined;
    }
    if (this.parentNode !== undefined) this.tag = this.parentNode.name!;
    this.name = this.childNodes[0]!.text().trim().toLowerCase();
  }

  /** The library's `getValue()`: the value's text, trimmed; a bare attribute is `true` in an extension tag, '' elsewhere. */
  getValue(): string | true {
    if (this.equal) return this.childNodes[1]!.text().trim();
    return this.type === 'ext-attr' || '';
  }

  get value(): string | true {
    return this.getValue();
  }

  override toString(): string {
    const [key, value] = this.childNodes;
    return this.equal ? key!.toString() + this.equal + this.quoteStart + value!.toString() + this.quoteEnd : key!.toString();
  }

  override text(): string {
    const [key, value] = this.childNodes;
    return this.equal ? `${key!.text()}${this.equal.trim()}"${value!.text()}"` : key!.text();
  }
}

/** The attributes of a tag or table part: wikiparser-node's AttributesToken. */
export class AttributesToken extends Token {
  declare name: string;

  constructor(text: string | undefined, type: AttributesType, name: string, state: ParseState) {
    super(type, state);
    this.name = name;
    if (!text) return;
    const attrType = type.slice(0, -1) as AttributeType;
    const dirtyType = `${attrType}-dirty` as const;
    let out = '';
    let lastIndex = 0;
    ATTR.lastIndex = 0;
    for (let mt = ATTR.exec(text); mt !== null; mt = ATTR.exec(text)) {
      const { index } = mt;
      const full = mt[0];
      const key = mt[1]!;
      out += text.slice(lastIndex, index);
      // The pattern is shared: read everything this match needs before anything else runs it.
      lastIndex = ATTR.lastIndex;
      if (VALID_KEY.test(key.replace(COMMENT_MARKERS, '').trim())) {
        const equal = mt[2];
        const quoteStart = mt[3];
        const value = mt[4] ?? mt[6];
        const quoteEnd = mt[5];
        const attr = new AttributeToken(attrType, name, key, quoteStart, quoteEnd, state, equal, value);
        if (out) {
          this.append(new AtomToken(dirtyType, state, out));
          out = '';
        }
        this.append(attr);
        ATTR.lastIndex = lastIndex;
      } else {
        out += full;
      }
    }
    out += text.slice(lastIndex);
    if (out) this.append(new AtomToken(dirtyType, state, out));
  }

  override afterBuild(): void {
    const parent = this.parentNode;
    if (parent !== undefined && parent.type === 'td') this.name = (parent as Token & { subtype: string }).subtype;
  }

  /** The attributes named `key` (all of them without a key), in order. */
  getAttrTokens(key?: string): AttributeToken[] {
    const out: AttributeToken[] = [];
    const k = key === undefined ? undefined : key.trim().toLowerCase();
    for (const c of this.childNodes) {
      if (c instanceof AttributeToken && (!k || c.name === k)) out.push(c);
    }
    return out;
  }

  hasAttr(key: string): boolean {
    return this.getAttrTokens(key).length > 0;
  }

  /** The last attribute named `key`. */
  getAttrToken(key: string): AttributeToken | undefined {
    const k = key.trim().toLowerCase();
    const { childNodes } = this;
    for (let i = childNodes.length - 1; i >= 0; i--) {
      const c = childNodes[i]!;
      if (c instanceof AttributeToken && c.name === k) return c;
    }
    return undefined;
  }

  /** The library's value of the last attribute `key`: `true` for a bare one in an extension tag, its trimmed text otherwise. */
  getAttr(key: string): string | true | undefined {
    return this.getAttrToken(key)?.getValue();
  }

  getAttrNames(): Set<string> {
    return new Set(this.getAttrTokens().map((a) => a.name));
  }

  getAttrs(): Record<string, string | true> {
    const out: Record<string, string | true> = {};
    for (const a of this.getAttrTokens()) out[a.name] = a.getValue();
    return out;
  }

  /** The space the library puts before attributes that do not start with one (not in tables). */
  private leadingSpace(str: string): string {
    if (!str || this.type === 'table-attrs') return '';
    return (this.type === 'ext-attrs' ? LEADING_EXT : LEADING_HTML).test(str) ? '' : ' ';
  }

  override toString(): string {
    const str = super.toString();
    return this.leadingSpace(str) + str;
  }

  override text(): string {
    let str = '';
    let first = true;
    for (const c of this.childNodes) {
      if (!(c instanceof AttributeToken)) continue;
      str += first ? c.text() : ` ${c.text()}`;
      first = false;
    }
    return this.leadingSpace(str) + str;
  }
}

/**
 * A token with attributes (an HTML tag, a table, row or cell): what the library's
 * `attributesParent` mixin gives, each call read from the token's attributes child.
 */
export abstract class AttributedToken extends Token {
  /** The token's `*-attrs` child. */
  abstract get attributes(): AttributesToken;

  getAttr(key: string): string | true | undefined {
    return this.attributes.getAttr(key);
  }

  hasAttr(key: string): boolean {
    return this.attributes.hasAttr(key);
  }

  getAttrs(): Record<string, string | true> {
    return this.attributes.getAttrs();
  }
}
