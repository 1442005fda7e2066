/**
 * Stage 1, braces: templates, parser functions, template arguments, and the headings of the
 * page's top level: wikiparser-node's parser/braces.js with the `#parseBraces` wrapper of its
 * src/index.js (a token other than the root is read behind a `\0`, so that no heading starts at
 * its beginning). As the library: first the innermost `{{…}}` without `{`, `}`, `[` or line
 * starting with `=` are replaced in a loop (the common case), with `[[…]]` and `-{…}-` set aside;
 * then a stack machine finds the rest, the rightmost `{{` or `{{{` closing first, as MediaWiki's
 * preprocessor does.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Stage, Token } from '../token.js';
import { HeadingToken } from '../tokens/heading.js';
import { ArgToken } from '../tokens/arg.js';
import { TranscludeToken, setBracesStage } from '../tokens/transclude.js';
import { removeComment } from '../tokens/parameter.js';

const closes: Record<string, string> = {
  '=': String.raw`\n(?!(?:[^\S\n]|\0\d+[cn]\x7F)*\n)`,
  '{': String.raw`\}{2,}|\|`,
  '-': String.raw`\}-`,
  '[': String.raw`\]\]`,
};
const lbrack = String.raw`\[(?!\[)`;
const newline = String.raw`\n(?![=\0])`;
const openBraces = String.raw`|\{{2,}`;
const marks = new Map([
  ['!', '!'],
  ['!!', '+'],
  ['(!', '{'],
  ['!)', '}'],
  ['!-', '-'],
  ['=', '~'],
  ['server', 'm'],
]);
const reReplace = new RegExp(
  String.raw`(?<!\{)\{\{((?:[^\n{}[]|${lbrack}|${newline})*)\}\}` +
    '|' +
    String.raw`\{\{((?:[^\n{}[]|${lbrack}|${newline})*)\}\}(?!\})` +
    '|' +
    String.raw`\[\[(?:[^\n[\]{]|${newline})*\]\]` +
    '|' +
    String.raw`-\{(?:[^\n{}[]|${lbrack}|${newline})*\}-`,
  'gu',
);
const RESTORE = /\0(\d+)\x7F/gu;
const URL_MAGIC = /^(?:filepath|(?:full|canonical)urle?):./u;
const VARDEFINE = /^#vardefine:./u;
const HEADING = /^(={1,6})(.+)\1((?:\s|\0\d+[cn]\x7F)*)$/u;
const LINE_END = /[\n\r\u2028\u2029]/u;

const execRegexes = new Map<string, RegExp>();
/** @bhsd/common's `getRegex`: one regex per source, its `lastIndex` reset. */
function getExecRegex(source: string): RegExp {
  let re = execRegexes.get(source);
  if (re === undefined) {
    re = new RegExp(source, 'gmu');
    execRegexes.set(source, re);
  } else re.lastIndex = 0;
  return re;
}

const HEADING_SOURCE = String.raw`^((?:\0\d+[cno]\x7F)*)={1,6}|`;
const LINK_SOURCE = String.raw`\[\[|-\{(?!\{)`;
/** The openings of the stage's pattern: a heading's too unless the configuration excludes headings. */
const sourceOf = (config: Config): string =>
  (config as Config & { excludes?: string[] }).excludes?.includes('heading') === true ? LINK_SOURCE : HEADING_SOURCE + LINK_SOURCE;

/** The marker kind of a template or magic word (`{{!}}` and its kin have their own). */
function getSymbol(s: string): string {
  const name = removeComment(s).trim().toLowerCase();
  const mark = marks.get(name);
  if (mark !== undefined) return mark;
  if (URL_MAGIC.test(name)) return 'm';
  if (VARDEFINE.test(name)) return 'n';
  return 't';
}

/** An opening on the stack: `{{`…, `[[`, `-{` or a line starting with `=`. */
interface Open {
  s: string;
  index: number;
  /** Where the current part starts (braces). */
  pos?: number;
  parts?: string[][];
  /** Whether a `=` would end the current part's key. */
  findEqual?: boolean;
}

const restore = (s: string, linkStack: readonly string[]): string =>
  s.includes('\0') ? s.replace(RESTORE, (_, p1: string) => linkStack[Number(p1)]!) : s;

/** parser/braces.js `parseBraces`, with the configuration of the token read (`state.config`). */
export function parseBracesText(input: string, state: ParseState): string {
  const { config, accum } = state;
  const source = sourceOf(config);
  const subst = config.parserFunction[3];
  const stack: Open[] = [];
  const linkStack: string[] = [];
  let wikitext = input;
  if (wikitext.includes('{{') || wikitext.includes('[[') || wikitext.includes('-{')) {
    let replaced: string | undefined;
    do {
      if (replaced !== undefined) wikitext = replaced;
      replaced = wikitext.replace(reReplace, (m: string, p1: string | undefined, p2: string | undefined) => {
        if (p1 !== undefined || typeof p2 === 'string') {
          const { length } = accum;
          const parts = (p1 ?? p2)!.split('|');
          const token = TranscludeToken.make(
            restore(parts[0]!, linkStack),
            parts.slice(1).map((part) => {
              const i = part.indexOf('=');
              return i === -1 ? [restore(part, linkStack)] : [restore(part.slice(0, i), linkStack), restore(part.slice(i + 1), linkStack)];
            }),
            state,
          );
          if (token !== undefined) return `\0${length}${getSymbol(parts[0]!)}\x7F`;
        }
        linkStack.push(restore(m, linkStack));
        return `\0${linkStack.length - 1}\x7F`;
      });
    } while (replaced !== wikitext);
  }

  // The text is kept as `head + src.slice(k)` (`b` = `head.length`), as the library keeps it: see
  // its parser/braces.js for why (no copy of the whole text per heading or template replaced).
  let head = '';
  let b = 0;
  let src = wikitext;
  let k = 0;
  const whole = (): string => {
    if (b > 0) {
      src = head + src.slice(k);
      head = '';
      b = 0;
      k = 0;
    }
    return src;
  };
  const textLength = (): number => b + src.length - k;
  const slice = (from: number, to: number): string =>
    from >= b ? src.slice(from - b + k, Math.max(to, b) - b + k) : whole().slice(from, to);
  const splice = (from: number, to: number, mark: string): void => {
    if (to < b) whole();
    const k2 = to - b + k;
    head = from >= b ? head + src.slice(k, from - b + k) + mark : head.slice(0, from) + mark;
    b = from + mark.length;
    k = k2;
  };
  const exec = (re: RegExp, from: number): RegExpExecArray | null => {
    if (from < b || (from === b && b > 0 && LINE_END.test(src[k - 1]!))) whole();
    re.lastIndex = from - b + k;
    const m = re.exec(src);
    if (m && b > 0) m.index += b - k;
    return m;
  };
  const push = (parts: string[][], lastIndex: number, index: number): void => {
    parts[parts.length - 1]!.push(restore(slice(lastIndex, index), linkStack));
  };

  const lastBraces = wikitext.lastIndexOf('}}') - wikitext.length;
  let moreBraces = lastBraces + wikitext.length !== -1;
  let regex = getExecRegex(source + (moreBraces ? openBraces : ''));
  let mt = regex.exec(wikitext);
  let lastIndex: number | undefined;
  while (mt || (lastIndex !== undefined && lastIndex <= textLength() && stack[stack.length - 1]?.s.startsWith('='))) {
    if (mt?.[1]) {
      const { length } = mt[1];
      mt[0] = mt[0].slice(length);
      mt.index += length;
    }
    const syntax = mt ? mt[0] : '\n';
    const curIndex = mt ? mt.index : textLength();
    const top = stack.pop();
    const open = top?.s;
    const index = top?.index;
    const parts = top?.parts;
    const innerEqual = syntax === '=' && top?.findEqual === true;
    if (syntax === ']]' || syntax === '}-') {
      lastIndex = curIndex + 2;
    } else if (syntax === '\n') {
      lastIndex = curIndex + 1;
      const outer = stack[stack.length - 1];
      const pos = outer?.pos;
      if (pos === undefined || outer!.findEqual === true || removeComment(slice(pos, index!)) !== '') {
        const rmt = HEADING.exec(slice(index!, curIndex));
        if (rmt) {
          const title = restore(rmt[2]!, linkStack);
          if (!title.includes('\n')) {
            splice(index!, curIndex, `\0${accum.length}h\x7F`);
            lastIndex = index! + 4 + String(accum.length).length;
            new HeadingToken(rmt[1]!.length, title, rmt[3]!, state);
          }
        }
      }
    } else if (syntax === '|' || innerEqual) {
      lastIndex = curIndex + 1;
      push(parts!, top!.pos!, curIndex);
      if (syntax === '|') parts!.push([]);
      top!.pos = lastIndex;
      top!.findEqual = syntax === '|';
      stack.push(top!);
    } else if (syntax.startsWith('}}')) {
      const close = syntax.slice(0, Math.min(open!.length, 3));
      const rest = open!.length - close.length;
      const { length } = accum;
      lastIndex = curIndex + close.length;
      push(parts!, top!.pos!, curIndex);
      let skip = false;
      let ch = 't';
      if (close.length === 3) {
        const argParts = parts!.map((part) => part.join('='));
        const str = argParts.length > 1 && removeComment(argParts[1]!).trim();
        new ArgToken(argParts, state);
        if (str && str.endsWith(':') && subst.includes(str.slice(0, -1).toLowerCase())) ch = 's';
      } else if (TranscludeToken.make(parts![0]![0]!, parts!.slice(1), state) === undefined) skip = true;
      else ch = getSymbol(parts![0]![0]!);
      if (!skip) {
        splice(index! + rest, lastIndex, `\0${length}${ch}\x7F`);
        lastIndex = index! + rest + 3 + String(length).length;
        if (rest > 1) stack.push({ s: open!.slice(0, rest), index: index!, pos: index! + rest, parts: [[]] });
        else if (rest === 1 && slice(index! - 1, index!) === '-') stack.push({ s: '-{', index: index! - 1, pos: index! + 1, parts: [[]] });
      }
    } else {
      lastIndex = curIndex + syntax.length;
      const opened: Open = { s: syntax, index: curIndex };
      if (syntax.startsWith('{')) {
        opened.pos = lastIndex;
        opened.parts = [[]];
      }
      if (top !== undefined) stack.push(top);
      stack.push(opened);
    }
    let curTop = stack[stack.length - 1];
    if (moreBraces && lastBraces + textLength() < lastIndex) {
      moreBraces = false;
      while (curTop?.s.startsWith('{')) {
        stack.pop();
        curTop = stack[stack.length - 1];
      }
    }
    regex = getExecRegex(
      source + (moreBraces ? openBraces : '') + (curTop ? `|${closes[curTop.s[0]!]}${curTop.findEqual === true ? '|=' : ''}` : ''),
    );
    mt = exec(regex, lastIndex);
  }
  return restore(whole(), linkStack);
}

/**
 * The `#parseBraces` wrapper: a token other than the root is read behind a `\0`. Headings are
 * not read where the token's configuration excludes them (`<poem>`'s content).
 */
export const parseBraces: Stage = (token: Token, state: ParseState) => {
  const raw = token.raw!;
  if (token.type === 'root') token.raw = parseBracesText(raw, state);
  else token.raw = parseBracesText(`\0${raw}`, state).slice(1);
};

setBracesStage(parseBraces);
