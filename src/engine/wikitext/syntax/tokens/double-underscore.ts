/**
 * A behaviour switch (`__NOTOC__`, `＿＿目次＿＿`): wikiparser-node's DoubleUnderscoreToken
 * (src/nowiki/doubleUnderscore.js). One text, the word; `name` is its canonical lower-case name;
 * the plain text is empty.
 */
import type { Config } from 'wikiparser-node';
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';

export class DoubleUnderscoreToken extends Token {
  declare name: string;
  readonly fullWidth: boolean;

  constructor(word: string, sensitive: boolean, fullWidth: boolean, state: ParseState) {
    super('double-underscore', state);
    this.append(new AstText(word));
    const lc = word.toLowerCase();
    const [, , iAlias, sAlias] = (state.config as Config).doubleUnderscore;
    this.name = (sensitive ? sAlias[word]?.toLowerCase() : iAlias[lc]) ?? lc;
    this.fullWidth = fullWidth;
  }

  get innerText(): string {
    return (this.childNodes[0] as AstText).data;
  }

  override toString(): string {
    const underscore = this.fullWidth ? '＿＿' : '__';
    return underscore + this.innerText + underscore;
  }

  override text(): string {
    return '';
  }
}
