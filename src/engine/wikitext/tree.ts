/**
 * The wikiparser-node front end: one configured parser, one guarded `parseTree` call.
 *
 * wikiparser-node parses recursively and is not hardened against adversarial input, so every call
 * is wrapped: any exception it throws (stack overflow included) makes the caller fall back to
 * plain text, never an error of ours. Measured limits and costs (see test/wikitext/properties):
 * - real articles nest `{{`, `[[` and `{|` at most 5 deep (corpus); the parser's time grows
 *   steeply with nesting (links in templates in links…: 0.4 s/KB at depth 100, 2.6 s/KB at 400,
 *   93 s for one 6 KB group at depth 2,000), so input nested deeper than MAX_NESTING is not
 *   handed to it at all: the plain-text fallback reads it instead;
 * - otherwise it costs about 0.2–0.3 ms per template or link (4 ms/KB on real articles, up to
 *   ~100 ms/KB on text made only of templates): callers parsing untrusted input should keep
 *   `maxInputBytes` well under the 32 MiB default.
 * On an internal exception wikiparser-node itself writes a report under its own `errors/` folder.
 *
 * All parser stages run: skipping the ones we do not need (quotes, magic links, language
 * conversion) measured −23% parse time, but is only reachable through the library's private,
 * untyped API (Token.parseOnce, Shadow.run), so it is not done. `maxStage` only cuts the last
 * stages: 10 (no language conversion, a no-op without variants) gives the same output and no
 * measurable gain, 9 or less loses lists and links the renderer reads.
 *
 * Where the time goes (issue #23; CPU time, same-run ratios to wtf_wikipedia's `wtf(text).json()`,
 * 26 Nov 2026 on 2 cores at load 11–22, so ±15 %; the full table is in patches/README.md):
 * `parseWikitext` is 3.5–4.2× wtf on the 78 wikitext-corpus articles and 4.9–5.9× on the 12
 * envelopes (runs of `npx tsx bench/wikitext.ts`). The library's parse alone (`Parser.parse`, this
 * configuration) is 3.2× and 4.2× in the same run as 3.5× and 5.6×: 92 % and 76 % of our time; the renderer, references and blocks are the rest (profile: 18 % on the
 * envelopes, whose citation templates make `ReferenceBook` and `render` heavier); this
 * configuration and the page's profile are built once per wiki (0.0–0.1 % of the profile).
 * Within the parse, the cost is token construction, not the stages' regexes: every `{{…}}`,
 * `[[…]]`, cell and tag becomes a class instance through 4–6 mixin constructors (`Token`,
 * `AstElement`, `AstNode`, sealed keys, `setAttribute`), each link normalizes its title and gets
 * an edit listener after the build, and garbage collection of that tree is 14–19 %. Stages 0–1
 * alone (comments, extension tags, templates: `Parser.parse(text, false, 2)`) are 0.8× wtf on
 * the wikitext corpus but 2.0× on the envelopes, whose hundreds of citation templates are built in
 * stage 1: so no set of skipped later stages brings the envelopes to wtf's time, and parity needs
 * stages 2–10 (tables, links, quotes, lists) read by passes of our own over the stage-1 tree.
 *
 * The library's own costs (a `require()` per token and stage, a throwaway parse of every title,
 * an event emitter per node, a property descriptor read per child insertion, a set of sealed keys
 * per element) are cut by patches/wikiparser-node+*.patch, applied at install by patch-package;
 * it changes speed only, so a copy installed without it gives the same output. Its last two hunks
 * (8, 9) cut `Parser.parse` by 7–8 % on the envelopes and 1–3 % on the wikitext corpus (the
 * library's copies alternating text by text in one process, `bench/wikiparser-parse.mjs
 * --interleave`, load 9–18); whole runs of `bench/wikitext.ts` at that load swing more than that
 * (wtf's own time by ±20 % between runs), so their ratios stay in the range above: after the
 * hunks 5.05× and 5.62× on the envelopes, 3.45× and 4.14× on the corpus; before, 4.34× and 3.84×.
 * Hunks 10–12 (26 Nov; each copy timed alone in its own process, the order rotating,
 * `--processes`, since in one process a copy also pays for the garbage of the one before it):
 * stages return before their parser when the text lacks the character it needs (`<`, `{`, `''`,
 * `[` …; most plain tokens), and non-temporary titles get their fields with their final
 * attributes instead of `Object.defineProperties` on existing ones. `Parser.parse` alone then is
 * 2.90× wtf on the envelopes and 2.07× on the wikitext corpus (3.31× and 2.36× before, same run at
 * load 8–10: −12 % on both; at load 19 −6.4 % on the envelopes and nothing measurable on the
 * corpus). What remains is flat: garbage collection 27 % of `Parser.parse` (scavenges copying
 * the live tree), the mixin constructors and `setAttribute` of every token, link titles
 * normalized in stage 5 and again after the build.
 */
import Parser from 'wikiparser-node';
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
  const config = Parser.getConfig({ ...base, nsid, namespaces, img, variants });
  configs.set(profile, config);
  return config;
}

/** Deepest nesting of opening brackets, counted in one pass without allocating. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    const d = text.charCodeAt(i + 1);
    if ((c === 123 && (d === 123 || d === 124)) || (c === 91 && d === 91)) {
      depth++;
      if (depth > max) max = depth;
      i++;
    } else if ((c === 125 && d === 125) || (c === 93 && d === 93) || (c === 124 && d === 125)) {
      if (depth > 0) depth--;
      i++;
    }
  }
  return max;
}

/**
 * The parsed tree, or undefined when the parser gave up. `viewOnly` (the tree is never edited)
 * skips the parser's bookkeeping for edits; it is a global of the library, restored afterwards.
 */
export function parseTree(wikitext: string, profile: WikiProfile = wikiProfile()): Token | undefined {
  if (nestingDepth(wikitext) > MAX_NESTING) return undefined;
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  try {
    return guardedParse(wikitext, (text) => parseWikitextTree(text, parserConfig(profile)));
  } catch {
    return undefined;
  } finally {
    Parser.viewOnly = viewOnly;
  }
}
