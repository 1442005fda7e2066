/**
 * Stage 8, free links and magic links: wikiparser-node's parser/magicLinks.js (its wrapper has no
 * condition). A bare URL becomes a `free-ext-link` without the punctuation that ends a sentence
 * (MediaWiki's rule: `)` kept when the URL holds a `(`); `ISBN`, `RFC`, `PMID` numbers become
 * `magic-link`s.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Stage, Token } from '../token.js';
import { MagicLinkToken } from '../tokens/magic-link.js';
import { EXT_URL_CHAR, EXT_URL_CHAR_FIRST, ZS } from './external-links.js';

const SPACE = String.raw`[${ZS}\t]|&nbsp;|&#0*160;|&#x0*a0;`;
const SP = `(?:${SPACE})+`;
const SPDASH = `(?:${SPACE}|-)`;
const MAGIC_LINK = String.raw`(?:RFC|PMID)${SP}\d+\b|ISBN${SP}(?:97[89]${SPDASH}?)?(?:\d${SPDASH}?){9}[\dx]\b`;

// Keyed by the protocols: an extension tag's content has its own configuration object.
const regexes = new Map<string, RegExp>();
function magicLinksRegex(config: Config): RegExp {
  let re = regexes.get(config.protocol);
  if (re === undefined) {
    re = new RegExp(String.raw`(^|[^\p{L}\p{N}_])(?:(?:${config.protocol})(${EXT_URL_CHAR_FIRST}${EXT_URL_CHAR})|${MAGIC_LINK})`, 'giu');
    regexes.set(config.protocol, re);
  }
  return re;
}

const TRAIL_ENTITY = /&(?:[lg]t|nbsp|#x0*(?:3[ce]|a0)|#0*(?:6[02]|160));/iu;
const SEP_PAREN = /[^,;\\.:!?][,;\\.:!?]+$/u;
const SEP = /[^,;\\.:!?)][,;\\.:!?)]+$/u;
const ENTITY_END = /&(?:[a-z]+|#x[\da-f]+|#\d+)$/iu;
const MAGIC_WORD = /^(?:RFC|PMID|ISBN)/u;

export function parseMagicLinksText(wikitext: string, state: ParseState): string {
  const re = magicLinksRegex(state.config);
  re.lastIndex = 0;
  const { accum } = state;
  return wikitext.replace(re, (m: string, lead: string, p1: string | undefined) => {
    let url = lead ? m.slice(lead.length) : m;
    if (p1) {
      let trail = '';
      const m2 = TRAIL_ENTITY.exec(url);
      if (m2) {
        trail = url.slice(m2.index);
        url = url.slice(0, m2.index);
      }
      const sepChars = (url.includes('(') ? SEP_PAREN : SEP).exec(url);
      if (sepChars) {
        let correction = 1;
        if (sepChars[0][1] === ';' && ENTITY_END.test(url.slice(0, sepChars.index))) correction = 2;
        trail = url.slice(sepChars.index + correction) + trail;
        url = url.slice(0, sepChars.index + correction);
      }
      if (trail.length >= p1.length) return m;
      new MagicLinkToken(url, 'free-ext-link', state);
      return `${lead}\0${accum.length - 1}w\x7F${trail}`;
    } else if (!MAGIC_WORD.test(url)) return m;
    new MagicLinkToken(url, 'magic-link', state);
    return `${lead}\0${accum.length - 1}i\x7F`;
  });
}

/** The magic links' words: only these, upper-case, make one (the pattern's `i` flag lets `isbn` match, MAGIC_WORD refuses it). */
const MAGIC_WORDS = /RFC|PMID|ISBN/u;
// Keyed by the protocols, as the stage's pattern.
const protocolRegexes = new Map<string, RegExp>();
function protocolRegex(config: Config): RegExp {
  let re = protocolRegexes.get(config.protocol);
  if (re === undefined) {
    re = new RegExp(config.protocol, 'iu');
    protocolRegexes.set(config.protocol, re);
  }
  return re;
}

/**
 * The stage's pattern changes only what holds a protocol (every one has a `:`, the cheap test
 * first) or an upper-case magic word: any other text comes back as it went in, so the pattern,
 * which tries its leading group at every character, is not run on it (a third of the characters
 * it read on the corpus; the stage 27 → 17 ms a round).
 */
export const parseMagicLinks: Stage = (token: Token, state: ParseState) => {
  const raw = token.raw!;
  if (MAGIC_WORDS.test(raw) || (raw.includes(':') && protocolRegex(state.config).test(raw))) token.raw = parseMagicLinksText(raw, state);
};
