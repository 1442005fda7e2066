/**
 * A template's or parser function's parameter, `key=value` or an anonymous `value`:
 * wikiparser-node's ParameterToken (src/parameter.js). Children: the key and the value, two plain
 * tokens read from the HTML stage on; an anonymous parameter's key has no child at all. Also the
 * comment helpers of the library's util/string.js that the braces read.
 */
import { AstText, PlainToken, Token } from '../token.js';
import type { AstNodes, ParseState } from '../token.js';

const COMMENT_MARK = /\0\d+[cn]\x7F/g;
/** util/string.js `removeComment`: drops the markers of comments (and of `n` tokens) from a half-parsed text. */
export const removeComment = (s: string): string => (s.includes('\0') ? s.replace(COMMENT_MARK, '') : s);

const COMMENT_LINE = /^(?!\s*$)(?:\s|\0\d+c\x7F)*$/u;
/**
 * util/string.js `removeCommentLine` (not standalone): the lines between the first and the last
 * made only of comments (and spaces) go, then every comment marker.
 */
export function removeCommentLine(str: string): string {
  const lines = str.split('\n');
  const { length } = lines;
  if (length < 3) return removeComment(str);
  const kept: string[] = [lines[0]!];
  for (let i = 1; i < length - 1; i++) if (!COMMENT_LINE.test(lines[i]!)) kept.push(lines[i]!);
  kept.push(lines[length - 1]!);
  return removeComment(kept.join('\n'));
}

/**
 * ParameterToken's `trimName`: spaces, tabs, line breaks, NULs and vertical tabs trimmed (not other
 * white space). A name with none of them at either end (every name the door asks a template for,
 * a dozen per citation) is returned without running the pattern.
 */
export function trimName(s: string): string {
  if (s.length > 0 && !trimmedAway(s.charCodeAt(0)) && !trimmedAway(s.charCodeAt(s.length - 1))) return s;
  return s.replace(TRIM_NAME, '$1');
}
const TRIM_NAME = /^[ \t\n\0\v]+|([^ \t\n\0\v])[ \t\n\0\v]+$/gu;
const trimmedAway = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 0 || c === 11;

const hasSkipped = (n: AstNodes): boolean => {
  if (n.type === 'comment' || n.type === 'noinclude') return true;
  for (const c of n.childNodes) if (hasSkipped(c)) return true;
  return false;
};

/** A token whose wikitext has a form without comments (the library's `toString(true)`). */
interface Skippable {
  serialize(skip: boolean): string;
}

/**
 * The library's `toString(true)`: the wikitext without comments and `<noinclude>`, for a
 * parameter's name. Our tokens have no `toString(skip)` (see the report to the lead): the
 * tokens that are their children's wikitext and the braces' own tokens give it; from any other
 * token's wikitext the comments' and `<noinclude>`s' own are cut out.
 */
export function skipString(n: AstNodes): string {
  if (n.type === 'comment' || n.type === 'noinclude') return '';
  if (n instanceof AstText) return n.data;
  const whole = n.toString();
  // A comment's or `<noinclude>`'s wikitext starts with `<`.
  if (!whole.includes('<') || !hasSkipped(n)) return whole;
  if (n.toString === Token.prototype.toString) {
    let s = '';
    for (const c of n.childNodes) s += skipString(c);
    return s;
  }
  return typeof (n as Partial<Skippable>).serialize === 'function' ? (n as unknown as Skippable).serialize(true) : withoutSkipped(n, whole);
}

/** Another token's wikitext without its comments and `<noinclude>`s, cut out in document order. */
function withoutSkipped(n: Token, whole: string): string {
  const skipped: string[] = [];
  const collect = (t: AstNodes): void => {
    if (t.type === 'comment' || t.type === 'noinclude') skipped.push(t.toString());
    else for (const c of t.childNodes) collect(c);
  };
  collect(n);
  let out = '';
  let from = 0;
  for (const cut of skipped) {
    const at = whole.indexOf(cut, from);
    if (at === -1) continue;
    out += whole.slice(from, at);
    from = at + cut.length;
  }
  return out + whole.slice(from);
}

/** A child's wikitext, without comments when `skip`. */
export const childString = (n: AstNodes, skip: boolean): string => (skip ? skipString(n) : n.toString());

export class ParameterToken extends Token {
  /** Typed for the door: this token's last child is always a token. */
  override get lastChild(): Token {
    return this.childNodes[this.childNodes.length - 1] as Token;
  }

  declare type: 'parameter';
  declare name: string;
  /** Whether the parameter has no key (wikiparser-node's `anon` getter: the key has no child). */
  readonly anon: boolean;

  /** `key` a number: an anonymous parameter (its name is set by the transclusion it joins). */
  constructor(key: string | number, value: string, state: ParseState) {
    super('parameter', state);
    const keyToken = new PlainToken('parameter-key', state, typeof key === 'number' ? undefined : key);
    const valueToken = new PlainToken('parameter-value', state, value);
    keyToken.stage = 2;
    valueToken.stage = 2;
    this.append(keyToken, valueToken);
    this.anon = typeof key === 'number';
    // A named parameter's name is its key's wikitext without comments, trimmed: the library sets
    // it from the half-parsed key first, but reads it only after the build, which sets it again.
    this.name = typeof key === 'string' ? key : String(key);
  }

  override afterBuild(): void {
    if (!this.anon) this.name = trimName(skipString(this.childNodes[0]!));
  }

  override toString(): string {
    return this.serialize(false);
  }

  serialize(skip: boolean): string {
    const [key, value] = this.childNodes;
    return this.anon ? childString(value!, skip) : `${childString(key!, skip)}=${childString(value!, skip)}`;
  }

  override text(): string {
    const [key, value] = this.childNodes;
    return this.anon ? value!.text() : `${key!.text()}=${value!.text()}`;
  }

  /** The value as the library gives it: lines of comments dropped, trimmed unless an anonymous parameter of a template. */
  getValue(): string {
    const value = removeCommentLine(this.childNodes[1]!.text());
    const parent = this.parentNode as { isTemplate?: () => boolean } | undefined;
    return this.anon && parent?.isTemplate?.() !== false ? value : value.trim();
  }
}
