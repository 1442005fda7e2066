/**
 * The wikitext front end: the page's parser configuration, and one guarded parse into our syntax
 * tree (./syntax: wikiparser-node's stages ported to light tokens, node for node the library's
 * tree, test/wikitext/syntax/oracle.test.ts).
 *
 * wikiparser-node stays for what it does well: its configuration (config/enwiki.json: every
 * magic word, parser function, extension tag and image option of MediaWiki, extended here with
 * the page's wiki, completed as its `Parser.getConfig` does) and as the oracle our passes are
 * compared with. The library's own modules are not loaded at run time (9 MB of every thread that
 * parses wikitext, for a function of ten lines: completeConfig). Its own parse cost 2.4× the
 * whole of wtf_wikipedia's (token classes built through four to six mixin constructors, events,
 * sealed keys, titles; docs/architecture.md "The wikitext door's speed"); the port keeps its
 * patterns and their order and drops the machinery: the tree is 0.65–0.8× wtf's time.
 *
 * The parse is not hardened against adversarial input by itself (the library's patterns are
 * superlinear in a few places, nesting.ts), so every call is guarded, and any exception makes the
 * caller fall back to plain text, never an error of ours. Measured limits and costs (see
 * test/wikitext/properties): real articles nest `{{`, `[[` and `{|` at most 5 deep (corpus); the
 * time grows steeply with nesting, so input nested deeper than MAX_NESTING is not parsed at all:
 * the plain-text fallback reads it instead. Callers parsing untrusted input should keep
 * `maxInputBytes` well under the 32 MiB default.
 */
import type { Config, ConfigData } from 'wikiparser-node';
import type { Token } from './syntax/types.js';
import enwiki from 'wikiparser-node/config/enwiki.json' with { type: 'json' };
import { CONVERTER_VARIANTS, IMAGE_KEYWORDS, NAMESPACE_ALIASES } from './grammar.js';
import { guardedParse } from './nesting.js';
import { parseWikitextTree } from './syntax/parse.js';
import { MAGIC_WORD_IDS } from '../wiki/data.js';
import { wikiProfile } from '../wiki/profile.js';
import type { WikiProfile } from '../wiki/profile.js';


/** Nesting of `{{`, `[[` and `{|` beyond which the parser is not trusted with the input. */
export const MAX_NESTING = 100;

const configs = new WeakMap<WikiProfile, Config>();

/** wikiparser-node's name of an image option, from MediaWiki's magic word id without `img_`. */
const imageOptionName = (option: string): string => option.replace(/_/g, '-');

/**
 * The English configuration plus the page's wiki: every name of each of its namespaces (so
 * `[[Thể loại:…]]` is a category and `[[ファイル:…]]` a file, not a link printed as text) and
 * every synonym of its image options (`サムネイル`, `250ピクセル`, `mini`), from its profile
 * (../wiki/profile.ts: MediaWiki's data, the wiki's settings, its siteinfo), and the variants of its
 * language when its wiki converts (grammar `languageConverter`). The grammar's own
 * aliases stay for a page whose wiki is unknown. One configuration per profile, built once.
 */
export function parserConfig(profile: WikiProfile): Config {
  const known = configs.get(profile);
  if (known !== undefined) return known;
  const base = structuredClone(enwiki) as unknown as ConfigData;
  const nsid: Record<string, number> = { ...base.nsid };
  const namespaces: Record<string, string> = { ...base.namespaces };
  for (const id of profile.namespaceIds()) {
    const names = profile.namespaceNames(id);
    if (names[0] !== undefined) namespaces[String(id)] = names[0];
    for (const name of names) nsid[name.toLowerCase()] = id;
  }
  for (const alias of NAMESPACE_ALIASES.file) nsid[alias] ??= 6;
  for (const alias of NAMESPACE_ALIASES.category) nsid[alias] ??= 14;
  const img: Record<string, string> = { ...base.img };
  for (const id of MAGIC_WORD_IDS) {
    if (!id.startsWith('img_')) continue;
    for (const word of profile.magicWord(id)) img[word] ??= imageOptionName(id.slice(4));
  }
  for (const [keyword, means] of IMAGE_KEYWORDS) img[keyword] ??= means;
  // Only a wiki that converts parses -{…}- as a block (./variants.ts); elsewhere it is text.
  const variants = [...(CONVERTER_VARIANTS.get(profile.language) ?? [])];
  const config = completeConfig({ ...base, nsid, namespaces, img, variants });
  configs.set(profile, config);
  return config;
}

/**
 * wikiparser-node's `Parser.getConfig(data)` (its src/index.ts), which completes a configuration
 * file: behaviour switches listed only with their aliases get their names, `<translate>` brings its
 * variable, and no construct is excluded yet. `data` is changed in place, as there; the library's
 * global conversion table and redirects, which it also sets, are not read by our passes.
 * test/wikitext/syntax/config.test.ts compares both on every configuration the library ships.
 */
export function completeConfig(data: ConfigData): Config {
  const { doubleUnderscore, ext, parserFunction, variable } = data;
  for (let i = 0; i < 2; i++) {
    if (doubleUnderscore[i]!.length === 0) doubleUnderscore[i] = Object.keys(doubleUnderscore[i + 2]!);
  }
  if (ext.includes('translate') && !variable.includes('translationlanguage')) {
    variable.push('translationlanguage');
    parserFunction[1]['TRANSLATIONLANGUAGE'] = 'translationlanguage';
  }
  return { ...data, excludes: [] } as Config;
}

/** The two-character brackets nestingDepth counts: the leftmost one next, each read once. */
const BRACKETS = /\{[{|]|\[\[|\}\}|\]\]|\|\}/g;

/**
 * Deepest nesting of opening brackets (`{{`, `{|`, `[[`), counted in one pass without allocating.
 * The pattern's `test` finds the next bracket (the engine's scan is about three times as fast as
 * reading the characters one by one here: 8.6 → 2.8 ms a round on the corpus); the character
 * before `lastIndex` tells which.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  BRACKETS.lastIndex = 0;
  while (BRACKETS.test(text)) {
    const c = text.charCodeAt(BRACKETS.lastIndex - 2);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) max = depth;
    } else if (depth > 0) depth--;
  }
  return max;
}

/** The parsed tree, or undefined when the parse gave up (the caller reads plain text instead). */
export function parseTree(wikitext: string, profile: WikiProfile = wikiProfile()): Token | undefined {
  if (nestingDepth(wikitext) > MAX_NESTING) return undefined;
  try {
    return guardedParse(wikitext, (text) => parseWikitextTree(text, parserConfig(profile)));
  } catch {
    return undefined;
  }
}
