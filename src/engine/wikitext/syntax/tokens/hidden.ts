/**
 * What the page shows nothing of: comments (`<!-- … -->`), `<noinclude>`/`<includeonly>` tags
 * and what an article does not include. wikiparser-node's CommentToken, NoincludeToken and
 * IncludeToken (src/nowiki/comment.js, noinclude.js, src/tagPair/include.js): one text each,
 * and no plain text (`text()` is empty, the library's `hiddenToken` mixin).
 */
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';

export class CommentToken extends Token {
  constructor(
    inner: string,
    readonly closed: boolean,
    state: ParseState,
  ) {
    super('comment', state);
    this.append(new AstText(inner));
  }

  override toString(): string {
    return `<!--${(this.childNodes[0] as AstText).data}${this.closed ? '-->' : ''}`;
  }

  override text(): string {
    return '';
  }
}

export class NoincludeToken extends Token {
  constructor(text: string, state: ParseState) {
    super('noinclude', state);
    this.append(new AstText(text));
  }

  override text(): string {
    return '';
  }
}
