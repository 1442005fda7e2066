/**
 * A token whose content is one text, never read by later stages: wikiparser-node's SyntaxToken
 * (`table-syntax`, `heading-trail`), AtomToken (`template-name`, `link-target`) and the
 * NowikiBaseToken family (`list`, `dd`, `hr`, `quote` …). A text holding markers (a link target
 * with a template in it) is split into its tokens at the build (../parse.ts).
 */
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';

export class SyntaxToken extends Token {
  constructor(type: TokenTypes, state: ParseState, text: string) {
    super(type, state);
    this.append(new AstText(text));
  }
}
