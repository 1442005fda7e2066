/**
 * Stage 5, internal links: wikiparser-node's parser/links.js (its `#parseLinks` wrapper has no
 * condition). `[[target|text]]` becomes a link, a category (namespace 14) or a file (namespace 6),
 * unless the target is no valid title, is a URL, holds a tag, heading, table or HTML token, or is
 * an interwiki file. A file whose caption holds `[[…]]` is read as MediaWiki does: the links
 * inside are read first (recursively) and the file ends at the first `]]` left over. A link's text
 * gets its quotes here; a file's text also its external links' URLs.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Stage, Token } from '../token.js';
import { normalizeTitle } from '../title.js';
import { FileToken } from '../tokens/file.js';
import { CategoryToken, LinkToken } from '../tokens/link.js';
import { parseExternalLinksText } from './external-links.js';
import { parseQuotesLine } from './quotes.js';

const REGEX = /^((?:(?!\0\d+!\x7F)[^\n[\]{}|])*)(?:(\||\0\d+!\x7F)([\s\S]*?[^\]])?)?\]\]([\s\S]*)$/u;
const REGEX_IN_EXT = /^((?:(?!\0\d+!\x7F)[^\n[\]{}|])+)(?:(\||\0\d+!\x7F)([\s\S]*?[^\]]))?\]\]([\s\S]*)$/u;
const REGEX_IMG = /^((?:(?!\0\d+!\x7F)[^\n[\]{}|])+)(\||\0\d+!\x7F)([\s\S]*)$/u;
const NOT_IN_TARGET = /\0\d+[exhbru]\x7F/u;
const COMMENTS = /\0\d+[cn]\x7F/gu;

// Keyed by the protocols: an extension tag's content has its own configuration object.
const urlRegexes = new Map<string, RegExp>();
function urlRegex(config: Config): RegExp {
  let re = urlRegexes.get(config.protocol);
  if (re === undefined) {
    re = new RegExp(String.raw`^\s*(?:${config.protocol}|//)`, 'iu');
    urlRegexes.set(config.protocol, re);
  }
  return re;
}

/** parser/links.js `parseLinks`. */
export function parseLinksText(wikitext: string, state: ParseState, inExt: boolean): string {
  const { config, accum } = state;
  const regex = inExt ? REGEX_IN_EXT : REGEX;
  const isUrl = urlRegex(config);
  const bits = wikitext.split('[[');
  let s = bits.shift()!;
  for (let i = 0; i < bits.length; i++) {
    let mightBeImg = false;
    let link: string | undefined;
    let delimiter: string | undefined;
    let text: string | undefined;
    let after: string | undefined;
    const x = bits[i]!;
    const m = regex.exec(x);
    if (m) {
      [, link, delimiter, text, after] = m;
      if (after!.startsWith(']') && text?.includes('[')) {
        text += ']';
        after = after!.slice(1);
      }
    } else {
      const m2 = REGEX_IMG.exec(x);
      if (m2) {
        mightBeImg = true;
        [, link, delimiter, text] = m2;
      }
    }
    if (link === undefined || isUrl.test(link) || NOT_IN_TARGET.test(link)) {
      s += `[[${x}`;
      continue;
    }
    const trimmed = link.replace(COMMENTS, '').trim();
    const force = trimmed.startsWith(':');
    if (force && mightBeImg) {
      s += `[[${x}`;
      continue;
    }
    const title = normalizeTitle(trimmed, 0, config, { decode: true, selfLink: true });
    const { ns, valid, interwiki } = title;
    if (!valid) {
      s += `[[${x}`;
      continue;
    } else if (mightBeImg) {
      if (ns !== 6 || interwiki) {
        s += `[[${x}`;
        continue;
      }
      let found = false;
      for (i++; i < bits.length; i++) {
        const next = bits[i]!;
        const p = next.split(']]');
        if (p.length > 2) {
          found = true;
          text += `[[${p[0]}]]${p[1]}`;
          after = p.slice(2).join(']]');
          break;
        } else if (p.length === 2) text += `[[${p[0]}]]${p[1]}`;
        else {
          text += `[[${next}`;
          break;
        }
      }
      text = parseLinksText(text!, state, inExt);
      if (!found) {
        s += `[[${link}${delimiter}${text}`;
        continue;
      }
    }
    if (text) text = parseQuotesLine(text, state);
    let kind: 'link' | 'file' | 'category' = 'link';
    if (!force) {
      if (ns === 6 && !interwiki) {
        if (text) text = parseExternalLinksText(text, state, true);
        kind = 'file';
      } else if (ns === 14 && !interwiki) kind = 'category';
    }
    if (text === undefined && delimiter) text = '';
    s += `\0${accum.length}l\x7F${after}`;
    // A target without markers reads the same title once built: the token keeps this one.
    const known = link.includes('\0') ? undefined : title;
    if (kind === 'file') new FileToken(link, text, state, delimiter, known);
    else if (kind === 'category') new CategoryToken(link, text, state, delimiter, known);
    else new LinkToken(link, text, state, delimiter, known);
  }
  return s;
}

/** The configuration's field the library adds for extension tags' contents. */
type TagConfig = Config & { inExt?: boolean };

export const parseLinks: Stage = (token: Token, state: ParseState) => {
  const raw = token.raw!;
  // A text without `[[` comes back as it went in.
  if (raw.includes('[[')) token.raw = parseLinksText(raw, state, (state.config as TagConfig).inExt === true);
};
