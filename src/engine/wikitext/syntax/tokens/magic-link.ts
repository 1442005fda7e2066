/**
 * A URL or a magic link: wikiparser-node's MagicLinkToken (src/magicLink.js), one text (markers of
 * templates and comments built into tokens). Its type is `free-ext-link` (a bare URL, stage 8),
 * `ext-link-url` (the URL of `[url text]`, stage 7) or `magic-link` (`ISBN …`, `RFC …`, `PMID …`).
 */
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';

const ZS = String.raw` \xA0\u1680\u2000-\u200A\u202F\u205F\u3000`;
const SPACES = new RegExp(String.raw`(?:[${ZS}\t]|&nbsp;|&#0*160;|&#x0*a0;)+`, 'gu');
const NUMBER_ENTITY = /&#(\d+|x[\da-f]+);/giu;
const decodeNumber = (s: string): string =>
  s.includes('&#') ? s.replace(NUMBER_ENTITY, (_, code: string) => String.fromCodePoint(Number((/^x/iu.test(code) ? '0' : '') + code))) : s;

export class MagicLinkToken extends Token {
  constructor(url: string, type: 'free-ext-link' | 'ext-link-url' | 'magic-link', state: ParseState) {
    super(type, state);
    this.append(new AstText(url));
  }

  /** The link's text, `{{!}}` read as `|` (wikiparser-node's `innerText`). */
  get innerText(): string {
    let link = '';
    for (const child of this.childNodes) {
      if (child.type === 'magic-word' && (child.name === '!' || child.name === '=')) link += child.name === '!' ? '|' : '=';
      else link += child.text();
    }
    return this.type === 'magic-link' ? link.replace(SPACES, ' ') : link;
  }

  /** The target (wikiparser-node's `link`), computed when read. */
  get link(): string {
    const { innerText } = this;
    if (this.type === 'magic-link') {
      return innerText.startsWith('ISBN') ? `ISBN ${innerText.slice(5).replace(/[- ]/gu, '').replace(/x$/u, 'X')}` : innerText;
    }
    return decodeNumber(innerText).replace(/\n/gu, '%0A');
  }
}
