/**
 * `''`, `'''` or `'''''`: wikiparser-node's QuoteToken (src/nowiki/quote.js), one text. `bold` and
 * `italic` say what it toggles; `closing` whether each closes one opened before on its line.
 */
import { Token } from '../token.js';
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';

export interface QuoteClosing {
  bold?: boolean;
  italic?: boolean;
}

export class QuoteToken extends SyntaxToken {
  readonly bold: boolean;
  readonly italic: boolean;
  readonly closing: QuoteClosing;

  constructor(quotes: string, closing: { bold: boolean; italic: boolean }, state: ParseState) {
    super('quote', state, quotes);
    this.bold = quotes.length !== 2;
    this.italic = quotes.length !== 3;
    this.closing = {};
    if (this.bold) this.closing.bold = closing.bold;
    if (this.italic) this.closing.italic = closing.italic;
  }

  /** Nothing inside an image's option other than its caption, as the library has it. */
  override text(): string {
    const parent: Token | undefined = this.parentNode;
    return parent?.type === 'image-parameter' && parent.name !== 'caption' ? '' : this.childNodes[0]!.toString();
  }
}
