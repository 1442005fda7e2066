/**
 * A page title as wikiparser-node reads one (its lib/title.js, after MediaWiki's
 * MediaWikiTitleCodec::splitTitleString): entities decoded, `_` and spaces folded, a leading `:`
 * for the main namespace, an interwiki prefix split off, a known namespace prefix resolved through
 * the configuration's `nsid`, the fragment after `#` split off, the first letter upper-cased.
 * Only what the door reads is kept: no redirects, no language conversion, no paths.
 */
import type { Config } from 'wikiparser-node';
import { decodeHTMLStrict } from 'entities';

export interface Title {
  /** Namespace id. */
  readonly ns: number;
  /** `Prefix:Main_title`, spaces as underscores (wikiparser-node's `title`). */
  readonly title: string;
  /** The title without its namespace, spaces kept. */
  readonly main: string;
  readonly fragment: string | undefined;
  readonly interwiki: string;
  /** Whether MediaWiki accepts it as a title (no `[]{}|<>`, no percent escapes, not empty). */
  readonly valid: boolean;
}

export interface TitleOptions {
  /** Percent escapes decoded first (links). */
  decode?: boolean;
  /** A title that is only a fragment (`[[#Section]]`) is valid. */
  selfLink?: boolean;
}

/**
 * Entities decoded, and every no-break space a space (the library's `decodeHtml`, entities or not).
 * Each step only where the text holds what it changes: most titles hold neither, and the calls
 * below run for every link and template (42 000 a round on the corpus).
 */
function decodeHtml(s: string): string {
  const decoded = s.includes('&') ? decodeHTMLStrict(s) : s;
  return decoded.includes('\xA0') ? decoded.replaceAll('\xA0', ' ') : decoded;
}

// Keyed by the prefixes' list, which the copies of the configuration made for extension tags'
// contents share: one pattern of a wiki's hundreds of prefixes, not one per `<ref>`.
const interwikiRegexes = new WeakMap<readonly string[], RegExp | null>();
function interwikiRegex(config: Config): RegExp | null {
  let re = interwikiRegexes.get(config.interwiki);
  if (re === undefined) {
    re = config.interwiki.length > 0 ? new RegExp(String.raw`^(${config.interwiki.join('|')})\s*:`, 'diu') : null;
    interwikiRegexes.set(config.interwiki, re);
  }
  return re;
}

function rawurldecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/%(?![\da-f]{2})/giu, '%25'));
  } catch {
    return s;
  }
}

const INVALID = /^:|\0\d+[eh!+-]\x7F|[<>[\]{}|\n]|%[\da-f]{2}|(?:^|\/)\.{1,2}(?:$|\/)/iu;

/**
 * Titles already read, per configuration: a page reads the same templates' and links' targets
 * many times (half of the corpus's 42 000 calls a round repeat an earlier one), and a title is
 * never changed once made (its fields are read-only; the callers that adjust one copy it). Keyed
 * by the namespace ids, which the copies of the configuration made for extension tags' contents
 * share, with the other two fields a title reads checked; cleared when full, so that a long run
 * over many pages does not grow it.
 */
interface TitleCache {
  readonly namespaces: Config['namespaces'];
  readonly interwiki: Config['interwiki'];
  readonly titles: Map<string, Title>;
}
const titleCaches = new WeakMap<Config['nsid'], TitleCache>();
const TITLE_CACHE_SIZE = 1 << 13;

export function normalizeTitle(input: string, defaultNs: number, config: Config, options: TitleOptions = {}): Title {
  let cache = titleCaches.get(config.nsid);
  if (cache === undefined) {
    cache = { namespaces: config.namespaces, interwiki: config.interwiki, titles: new Map() };
    titleCaches.set(config.nsid, cache);
  } else if (cache.namespaces !== config.namespaces || cache.interwiki !== config.interwiki) return readTitle(input, defaultNs, config, options);
  const key = `${defaultNs}${options.decode === true ? 'd' : ''}${options.selfLink === true ? 's' : ''}:${input}`;
  let title = cache.titles.get(key);
  if (title === undefined) {
    if (cache.titles.size === TITLE_CACHE_SIZE) cache.titles.clear();
    title = readTitle(input, defaultNs, config, options);
    cache.titles.set(key, title);
  }
  return title;
}

function readTitle(input: string, defaultNs: number, config: Config, options: TitleOptions): Title {
  let title = input;
  let interwiki = '';
  let fragment: string | undefined;
  const trimmed = title.trim();
  const subpage = trimmed.startsWith('../');
  if (options.decode === true && title.includes('%')) title = rawurldecode(title);
  title = decodeHtml(title);
  // Runs of `_` and spaces become one space: only a `_` or two spaces in a row change the text.
  if (title.includes('_') || title.includes('  ')) title = title.replace(/[_ ]+/gu, ' ');
  title = title.trim();
  let ns = defaultNs;
  if (subpage) ns = 0;
  else {
    if (title.startsWith(':')) {
      ns = 0;
      title = title.slice(1).trim();
    }
    // An interwiki prefix ends with a colon: a title without one has none.
    if (defaultNs === 0 && title.includes(':')) {
      const iw = interwikiRegex(config)?.exec(title.replaceAll('_', ' ').replace(/^\s*:?\s*/u, ''));
      if (iw) {
        interwiki = iw[1]!.toLowerCase();
        title = title.slice(iw.indices![0]![1]);
      }
    }
    const colon = title.indexOf(':');
    if (colon !== -1) {
      const k = title.slice(0, colon).trim().toLowerCase();
      const id = Object.prototype.hasOwnProperty.call(config.nsid, k) ? config.nsid[k] : undefined;
      if (id) {
        ns = id;
        title = title.slice(colon + 1).trim();
      }
    }
  }
  const hash = title.indexOf('#');
  if (hash !== -1) {
    let f = title.slice(hash).trim().slice(1);
    if (f.includes('%')) f = rawurldecode(f);
    fragment = f.replace(/ /gu, '_');
    title = title.slice(0, hash).trim();
  }
  const sub = subpage ? title.replace(/^(?:\.\.\/)*/u, '') : title;
  const valid =
    Boolean(title || interwiki || (options.selfLink === true && ns === 0 && fragment !== undefined)) &&
    (!(title.includes('&') || title.includes('\xA0')) || decodeHtml(title) === title) &&
    !INVALID.test(sub);
  // No `_` is left in the title (folded above).
  const main = mainOf(title);
  return { ns, title: fullTitle(interwiki, ns, main, config), main, fragment, interwiki, valid };
}

/** The main part as the library keeps it: trimmed, its first letter upper-cased. */
const mainOf = (text: string): string => {
  const trimmed = text.trim();
  return trimmed && trimmed[0]!.toUpperCase() + trimmed.slice(1);
};

/** `interwiki:Prefix:Main`, spaces as underscores (the library's `title`). */
function fullTitle(interwiki: string, ns: number, main: string, config: Config): string {
  const namespace = config.namespaces[ns] ?? '';
  return `${interwiki}${interwiki && ':'}${namespace}${namespace && ':'}${main}`.replaceAll(' ', '_');
}

/**
 * A title whose main part was read with markers in it, with that part written back (`main`, the
 * markers replaced by their wikitext): the library's title of a name read by stages 0 and 1.
 */
export function withMain(title: Title, main: string, config: Config): Title {
  const m = mainOf(main.replace(/_/gu, ' '));
  return { ...title, main: m, title: fullTitle(title.interwiki, title.ns, m, config) };
}
