/**
 * Stage 7, external links `[url text]`: wikiparser-node's parser/externalLinks.js and its
 * `#parseExternalLinks` wrapper (a text without `[` is left as it is). In a file's options (the
 * links stage calls it with `inFile`) only the URL becomes a token, the brackets and text stay.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Stage, Token } from '../token.js';
import { ExtLinkToken } from '../tokens/ext-link.js';
import { MagicLinkToken } from '../tokens/magic-link.js';

/** wikiparser-node's `zs`, `extUrlCharFirst`, `extUrlChar` (util/string.js). */
export const ZS = String.raw` \xA0\u1680\u2000-\u200A\u202F\u205F\u3000`;
const COMMON_URL_CHAR = String.raw`[^[\]<>"\0-\x1F\x7F${ZS}\uFFFD]`;
export const EXT_URL_CHAR_FIRST = String.raw`(?:\[[\da-f:.]+\]|${COMMON_URL_CHAR})`;
export const EXT_URL_CHAR = String.raw`(?:${COMMON_URL_CHAR}|\0\d+[cn!~]\x7F)*`;

// Keyed by the protocols: an extension tag's content has its own configuration object.
const regexes = new Map<string, RegExp>();
function externalLinksRegex(config: Config): RegExp {
  let re = regexes.get(config.protocol);
  if (re === undefined) {
    re = new RegExp(
      String.raw`\[((?:\0\d+[cn]\x7F)*(?:\0\d+f\x7F|(?:(?:${config.protocol}|//)${EXT_URL_CHAR_FIRST}|\0\d+m\x7F)${EXT_URL_CHAR}(?=[[\]<>"\t${ZS}]|\0\d)))([${ZS}]*(?![${ZS}]))([^\]\x01-\x08\x0A-\x1F\uFFFD]*)\]`,
      'giu',
    );
    regexes.set(config.protocol, re);
  }
  return re;
}

const ANGLE = /&[lg]t;/u;

/** parser/externalLinks.js `parseExternalLinks`. */
export function parseExternalLinksText(wikitext: string, state: ParseState, inFile = false): string {
  const re = externalLinksRegex(state.config);
  re.lastIndex = 0;
  return wikitext.replace(re, (_, url: string, space: string, text: string) => {
    const { length } = state.accum;
    const mt = ANGLE.exec(url);
    if (mt) {
      space = '';
      text = url.slice(mt.index) + space + text;
      url = url.slice(0, mt.index);
    }
    if (inFile) {
      new MagicLinkToken(url, 'ext-link-url', state);
      return `[\0${length}f\x7F${space}${text}]`;
    }
    new ExtLinkToken(url, space, text, state);
    return `\0${length}w\x7F`;
  });
}

export const parseExternalLinks: Stage = (token: Token, state: ParseState) => {
  const text = token.raw!;
  if (!text.includes('[')) return;
  token.raw = parseExternalLinksText(text, state);
};
