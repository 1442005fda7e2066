/**
 * Stage 9, lists: the markers `*#:;` at a line's start and a `:` after `;` on the same line:
 * wikiparser-node's parser/list.js with its `#parseList` wrapper (src/index.js): a token other
 * than the root reads its lines from the second on (its first line does not start a line of the
 * page), except the content of `<poem>`. The prefix a line shares with the line before (`;` read
 * as `:`) goes into the same list token as the library splits it.
 */
import type { ParseState, Stage, Token } from '../token.js';
import { ddToken, listToken } from '../tokens/list.js';

const PREFIX = /^((?:\0\d+[cno]\x7F)*)([;:*#]+)(\s*)/u;
const SPLIT_DT = /(?=;)/u;

/** util/html.js `getCommon`: the length of the common prefix, as the library counts it. */
const getCommon = (prefix: string, lastPrefix: string): number =>
  prefix.startsWith(lastPrefix) ? lastPrefix.length : [...lastPrefix].findIndex((ch, i) => ch !== prefix[i]);

interface ListState {
  lastPrefix: string;
}

/** A token the `:` search reads: an HTML tag's fields, a quote's. */
interface Marked {
  name?: string;
  closing?: boolean;
  selfClosing?: boolean;
  bold?: boolean;
  italic?: boolean;
}

/** parser/list.js `parseList` on one line. */
function parseListLine(wikitext: string, list: ListState, state: ParseState): string {
  const mt = PREFIX.exec(wikitext);
  if (!mt) {
    list.lastPrefix = '';
    return wikitext;
  }
  const { config, accum } = state;
  const [total, comment, prefix, space] = mt as unknown as [string, string, string, string];
  const prefix2 = prefix.replace(/;/gu, ':');
  const commonPrefixLength = getCommon(prefix2, list.lastPrefix);
  let parts = ((commonPrefixLength > 1 ? prefix.slice(commonPrefixLength - 1) : prefix) + space).split(SPLIT_DT);
  const isDt = parts[0]!.startsWith(';');
  let dt = parts.length - (isDt ? 0 : 1);
  if (commonPrefixLength > 1) {
    const commonPrefix = prefix.slice(0, commonPrefixLength - 1);
    if (isDt) {
      const commonPrefixes = commonPrefix.split(SPLIT_DT);
      // Not a spread into unshift: a line may hold any number of markers.
      parts = commonPrefixes.concat(parts);
      dt += commonPrefix.includes(';') ? commonPrefixes.length : 0;
    } else parts[0] = commonPrefix + parts[0]!;
  }
  list.lastPrefix = prefix2;
  let text = comment;
  for (let i = 0; i < parts.length; i++) text += `\0${accum.length + i}d\x7F`;
  text += wikitext.slice(total.length);
  for (const part of parts) listToken(state, part);
  if (!dt) return text;
  const [normalTags, , voidTags] = config.html;
  const fullRegex = /:+|-\{|\0\d+[xq]\x7F/gu;
  let regex = fullRegex;
  let ex = regex.exec(text);
  let lt = 0;
  let lb = false;
  let li = false;
  let lc = 0;
  const dd = (syntax: string, index: number): string => {
    ddToken(state, syntax);
    return `${text.slice(0, index)}\0${accum.length - 1}d\x7F${text.slice(index + syntax.length)}`;
  };
  const update = (closing: boolean | undefined): void => {
    if (!closing) lt++;
    else if (lt) lt--;
  };
  while (ex && dt) {
    const { 0: syntax, index } = ex;
    if (syntax === '-{') {
      if (!lc) {
        const { lastIndex } = regex;
        regex = /-\{|\}-/gu;
        regex.lastIndex = lastIndex;
      }
      lc++;
    } else if (syntax === '}-') {
      lc--;
      if (!lc) {
        const { lastIndex } = regex;
        regex = fullRegex;
        regex.lastIndex = lastIndex;
      }
    } else if (syntax.endsWith('x\x7F')) {
      const { name, closing, selfClosing } = accum[Number(syntax.slice(1, -2))] as Marked;
      if (normalTags.includes(name!) || (!selfClosing && !voidTags.includes(name!))) update(closing);
    } else if (syntax.endsWith('q\x7F')) {
      const { bold, italic } = accum[Number(syntax.slice(1, -2))] as Marked;
      if (bold) {
        update(lb);
        lb = !lb;
      }
      if (italic) {
        update(li);
        li = !li;
      }
    } else if (lt === 0) {
      if (syntax.length >= dt) return dd(syntax.slice(0, dt), index);
      dt -= syntax.length;
      regex.lastIndex = index + 4 + String(accum.length).length;
      text = dd(syntax, index);
    }
    ex = regex.exec(text);
  }
  return text;
}

/** A line starting with what PREFIX reads first: a list marker, or a token's marker. */
const MIGHT_LIST = /\n[;:*#\0]/u;
const MIGHT_LIST_AT_START = /(?:^|\n)[;:*#\0]/u;

/** The `#parseList` wrapper. */
export const parseList: Stage = (token: Token, state: ParseState) => {
  // A link's text and `<langconvert>`'s content have a configuration excluding lists.
  if ((state.config as { excludes?: string[] }).excludes?.includes('list') === true) return;
  const text = token.raw!;
  let i = token.type === 'root' || (token.type === 'ext-inner' && token.name === 'poem') ? 0 : 1;
  if (i === 1 && !text.includes('\n')) return;
  // A line changes only where it starts with a list marker (or a marker of a comment before
  // one): without such a line the text comes back as it went in, so it is not split and joined.
  if (!(i === 0 ? MIGHT_LIST_AT_START : MIGHT_LIST).test(text)) return;
  const lines = text.split('\n');
  const list: ListState = { lastPrefix: '' };
  for (; i < lines.length; i++) lines[i] = parseListLine(lines[i]!, list, state);
  token.raw = lines.join('\n');
};
