/**
 * `[url text]`: wikiparser-node's ExtLinkToken (src/extLink.js). Children: the URL (a
 * MagicLinkToken `ext-link-url`) and, when there is one, the `ext-link-text`, a plain token read
 * only by the converter stage. The spaces between them are the token's own.
 */
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { LAST_STAGE } from './link.js';
import { MagicLinkToken } from './magic-link.js';

const URL_MARKER = /^\0\d+f\x7F$/u;
const NO_SPACE_NEEDED = /^[^[\]<>"\0-\x1F\x7F\p{Zs}\uFFFD]/u;

export class ExtLinkToken extends Token {
  declare type: 'ext-link';

  /** Typed for the door: this token's first child is always a token. */
  override get firstChild(): Token {
    return this.childNodes[0] as Token;
  }

  space: string;

  constructor(url: string, space: string, text: string, state: ParseState) {
    super('ext-link', state);
    const link = url && URL_MARKER.test(url) ? state.accum[Number(url.slice(1, -2))]! : new MagicLinkToken(url, 'ext-link-url', state);
    this.append(link);
    this.space = space;
    if (text) {
      const inner = new PlainToken('ext-link-text', state, text);
      inner.stage = LAST_STAGE;
      this.append(inner);
    }
  }

  /** The URL's target (wikiparser-node's `link`), computed when read. */
  get link(): string {
    return (this.childNodes[0] as MagicLinkToken).link;
  }

  override toString(): string {
    const { childNodes } = this;
    if (childNodes.length === 1) return `[${childNodes[0]!.toString()}${this.space}]`;
    const inner = childNodes[1] as Token;
    // As the library when printing: a text glued to the URL gets the space that separates it.
    if (!this.space) {
      const first = inner.childNodes[0];
      if ((first?.type === 'text' || first?.type === 'converter') && NO_SPACE_NEEDED.test(inner.text().replace(/&[lg]t;/u, '<'))) this.space = ' ';
    }
    return `[${childNodes[0]!.toString()}${this.space}${inner.toString()}]`;
  }

  override text(): string {
    const { childNodes } = this;
    return childNodes.length === 1 ? `[${childNodes[0]!.text()}]` : `[${childNodes[0]!.text()} ${childNodes[1]!.text()}]`;
  }
}
