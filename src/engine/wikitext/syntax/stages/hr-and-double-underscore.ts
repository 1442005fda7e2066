/**
 * Stage 4: wikiparser-node's parser/hrAndDoubleUnderscore.js and its `#parseHrAndDoubleUnderscore`
 * wrapper (src/index.js): `----` at a line's start, behaviour switches (`__NOTOC__`, full-width
 * `＿＿目次＿＿`) and, in tokens other than the page (the page's are the braces stage's), headings.
 */
import type { Config } from 'wikiparser-node';
import type { Stage } from '../token.js';
import { isExcluded } from '../tokens/attributes.js';
import { DoubleUnderscoreToken } from '../tokens/double-underscore.js';
import { HeadingToken } from '../tokens/heading.js';
import { hrToken } from '../tokens/hr.js';

interface Switches {
  readonly regex: RegExp;
  readonly insensitive: ReadonlySet<string>;
  readonly sensitive: ReadonlySet<string>;
  readonly aliases: Readonly<Record<string, string>>;
}

const isUnderscore = (s: string): boolean => !/^＿{2}.+＿{2}$/u.test(s);

/** Per `config.doubleUnderscore` (kept by the copies of a configuration the extension tags make for their content). */
const SWITCHES = new WeakMap<Config['doubleUnderscore'], Switches>();

function switchesOf(config: Config): Switches {
  const words = config.doubleUnderscore;
  let s = SWITCHES.get(words);
  if (s === undefined) {
    const [insensitive, sensitive, aliases] = words;
    const all = [...insensitive, ...sensitive];
    s = {
      // The library's pattern, built the same way (names are not escaped there either).
      regex: new RegExp(
        String.raw`^((?:\0\d+[cno]\x7F)*)(-{4,})|__(${all.filter(isUnderscore).join('|')})__|＿{2}(${all
          .filter((x) => !isUnderscore(x))
          .map((x) => x.slice(2, -2))
          .join('|')})＿{2}`,
        'gimu',
      ),
      insensitive: new Set(insensitive.filter(isUnderscore)),
      sensitive: new Set(sensitive.filter(isUnderscore)),
      aliases,
    };
    SWITCHES.set(words, s);
  }
  return s;
}

const HEADING = /^((?:\0\d+[cn]\x7F)*)(={1,6})(.+)\2((?:\s|\0\d+[cn]\x7F)*)$/gmu;

export const parseHrAndDoubleUnderscore: Stage = (token, state) => {
  if (isExcluded(state.config, 'hr')) return;
  let data = token.raw!;
  // The switches' pattern reads only `----`, `__…__` and `＿＿…＿＿`, the headings' only lines with
  // `=`: each runs only where the text holds what it reads (most texts with a `=` hold no
  // switch), and a text holding neither comes back as it went in.
  const switches = data.includes('__') || data.includes('----') || data.includes('＿＿');
  const headings = data.includes('=') && !isExcluded(state.config, 'heading');
  if (!switches && !headings) return;
  const { config, accum } = state;
  const sw = switchesOf(config);
  const whole = token.type === 'root' || (token.type === 'ext-inner' && token.name === 'poem');
  if (!whole) data = `\0${data}`;
  if (switches) data = data.replace(sw.regex, (m, p1: string | undefined, p2: string | undefined, p3: string | undefined, p4: string | undefined) => {
    if (p2) {
      hrToken(state, p2);
      return `${p1!}\0${accum.length - 1}r\x7F`;
    }
    const key = (p3 ?? p4)!;
    const caseSensitive = sw.sensitive.has(key);
    const lc = key.toLowerCase();
    const caseInsensitive = sw.insensitive.has(lc);
    if (caseSensitive || caseInsensitive) {
      new DoubleUnderscoreToken(key, caseSensitive, Boolean(p4), state);
      return `\0${accum.length - 1}${caseInsensitive && (sw.aliases[lc] ?? lc) === 'toc' ? 'u' : 'n'}\x7F`;
    }
    return m;
  });
  if (headings) {
    data = data.replace(HEADING, (_, lead: string, equals: string, heading: string, trail: string) => {
      const text = `${lead}\0${accum.length}h\x7F`;
      new HeadingToken(equals.length, heading, trail, state);
      return text;
    });
  }
  token.raw = whole ? data : data.slice(1);
};
