/**
 * Stage 6, quotes: `''` and `'''` by line, wikiparser-node's parser/quotes.js with the line
 * splitting of its `#parseQuotes` (src/index.js). As MediaWiki's doQuotes: `''''` is `'` and
 * `'''`, more than five is the extra `'`s and `'''''`; with an odd number of both bold and
 * italic, one `'''` becomes `'` + `''` (the first after a single-letter word, else after a
 * longer word, else after a space).
 */
import type { ParseState, Stage, Token } from '../token.js';
import { QuoteToken } from '../tokens/quote.js';

const SPLIT = /('{2,})/u;

/** parser/quotes.js `parseQuotes` on one line (not tidied: no closing quote added at its end). */
export function parseQuotesLine(wikitext: string, state: ParseState): string {
  const arr = wikitext.split(SPLIT);
  const { length } = arr;
  if (length === 1) return wikitext;
  let nBold = 0;
  let nItalic = 0;
  let firstSingle: number | undefined;
  let firstMulti: number | undefined;
  let firstSpace: number | undefined;
  for (let i = 1; i < length; i += 2) {
    const len = arr[i]!.length;
    if (len === 2) nItalic++;
    else if (len === 3 || len === 4) {
      if (len === 4) {
        arr[i - 1] += `'`;
        arr[i] = `'''`;
      }
      nBold++;
      if (firstSingle !== undefined) continue;
      const before = arr[i - 1]!;
      if (before.endsWith(' ')) {
        if (firstMulti === undefined && firstSpace === undefined) firstSpace = i;
      } else if (before.slice(-2, -1) === ' ') firstSingle = i;
      else firstMulti ??= i;
    } else {
      arr[i - 1] += `'`.repeat(len - 5);
      arr[i] = `'''''`;
      nItalic++;
      nBold++;
    }
  }
  if (nItalic % 2 === 1 && nBold % 2 === 1) {
    const i = firstSingle ?? firstMulti ?? firstSpace;
    if (i !== undefined) {
      arr[i] = `''`;
      arr[i - 1] += `'`;
    }
  }
  let bold = false;
  let italic = false;
  const { accum } = state;
  for (let i = 1; i < length; i += 2) {
    const n = arr[i]!.length;
    const isBold = n !== 2;
    const isItalic = n !== 3;
    new QuoteToken(arr[i]!, { bold: isBold && bold, italic: isItalic && italic }, state);
    if (isBold) bold = !bold;
    if (isItalic) italic = !italic;
    arr[i] = `\0${accum.length - 1}q\x7F`;
  }
  return arr.join('');
}

/** The `#parseQuotes` wrapper: line by line, only the lines with `''`. */
export const parseQuotes: Stage = (token: Token, state: ParseState) => {
  const text = token.raw!;
  if (!text.includes("''")) return;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes("''")) lines[i] = parseQuotesLine(lines[i]!, state);
  token.raw = lines.join('\n');
};
