/**
 * `== Title ==`: wikiparser-node's HeadingToken (src/heading.js). Children: the title, a plain
 * token read from the HTML stage on (the braces stage made it), and the trail after the closing
 * `=` (spaces, comments).
 */
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';

export class HeadingToken extends Token {
  declare type: 'heading';

  /** Typed for the door: this token's first child is always a token. */
  override get firstChild(): Token {
    return this.childNodes[0] as Token;
  }

  constructor(
    readonly level: number,
    title: string,
    trail: string,
    state: ParseState,
  ) {
    super('heading', state);
    const t = new PlainToken('heading-title', state, title);
    t.stage = 2;
    this.append(t, new SyntaxToken('heading-trail', state, trail));
  }

  override toString(): string {
    const equals = '='.repeat(this.level);
    return equals + String(this.childNodes[0]) + equals + String(this.childNodes[1]);
  }

  override text(): string {
    const equals = '='.repeat(this.level);
    return equals + this.childNodes[0]!.text() + equals;
  }
}
