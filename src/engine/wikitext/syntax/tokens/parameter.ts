/**
 * A template's or parser function's parameter, `key=value` or an anonymous `value`:
 * wikiparser-node's ParameterToken (src/parameter.js). Children: the key and the value, two plain
 * tokens read from the HTML stage on; an anonymous parameter's key has no child at all. Also the
 * comment helpers of the library's util/string.js that the braces read.
 */
import { AstText, Token } from '../token.js';
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

/** ParameterToken's `trimName`: spaces, tabs, line breaks, NULs and vertical tabs trimmed (not other white space). */
export const trimName = (s: string): string => s.replace(/^[ \t\n\0\v]+|([^ \t\n\0\v])[ \t\n\0\v]+$/gu, '$1');

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
 * tokens that are their children's wikitext and the braces' own tokens give it; any other token
 * holding a comment gives its wikitext whole.
 */
export function skipString(n: AstNodes): string {
  if (n.type === 'comment' || n.type === 'noinclude') return '';
  if (n instanceof AstText || !hasSkipped(n)) return n.toString();
  if (n.toString === Token.prototype.toString) {
    let s = '';
    for (const c of n.childNodes) s += skipString(c);
    return s;
  }
  return typeof (n as Partial<Skippable>).serialize === 'function' ? (n as unknown as Skippable).serialize(true) : n.toString();
}

/** A child's wikitext, without comments when `skip`. */
export const childString = (n: AstNodes, skip: boolean): string => (skip ? skipString(n) : n.toString());

export class ParameterToken extends Token {
  declare name: string;
  /** Whether the parameter has no key (wikiparser-node's `anon` getter: the key has no child). */
  readonly anon: boolean;

  /** `key` a number: an anonymous parameter (its name is set by the transclusion it joins). */
  constructor(key: string | number, value: string, state: ParseState) {
    super('parameter', state);
    const keyToken = new Token('parameter-key', state, typeof key === 'number' ? undefined : key);
    const valueToken = new Token('parameter-value', state, value);
    keyToken.stage = 2;
    valueToken.stage = 2;
    this.append(keyToken, valueToken);
    this.anon = typeof key === 'number';
    this.name = typeof key === 'string' ? trimName(removeCommentLine(key)) : String(key);
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
