/**
 * LanguageConverter blocks `-{…}-` (zhwiki, srwiki, kuwiki …): which of their parts the page
 * shows. The syntax passes parse a block into `converter-flags` and `converter-rule`s, each rule an
 * optional `converter-rule-variant` and its `converter-rule-to` (as wikiparser-node does); they
 * convert nothing, and the renderer must choose, as MediaWiki does for a reader
 * of the page's own language (grammar/wikitext.json `languageConverter`):
 * - hidden flags (`H`, `T`, `-`) show nothing; the raw flag (`R`) shows the content as written;
 * - a block without variant rules (`-{Name}-`, kept unconverted) shows its text;
 * - otherwise the rule for the page's language, else the first of its MediaWiki fallback chain
 *   the block names (zh → zh-hans, zh-hant, zh-cn …), else the block's first rule.
 * Without it the renderer printed every rule, variant names included ("zh-hans中国 zh-hant中國").
 */
import type { AstNodes, Token } from './syntax/types.js';
import { GRAMMAR } from '../grammar/load.js';
import { languageFallbacks } from '../wiki/data.js';

const grammar = GRAMMAR.wikitext.languageConverter;
const HIDDEN = new Set(grammar.hiddenFlags.map((r) => r.match));
const RAW = new Set(grammar.rawFlags.map((r) => r.match));

/** What a block shows: nodes to render, or the raw text of its rules. */
export type ConverterShows = { nodes: readonly AstNodes[] } | { raw: string };

const NOTHING: ConverterShows = { nodes: [] };

export function converterShows(block: Token, language: string | undefined): ConverterShows {
  const rules: Token[] = [];
  const flags: string[] = [];
  for (const child of block.childNodes) {
    if (child.type === 'converter-rule') rules.push(child as Token);
    else if (child.type === 'converter-flags') {
      for (const flag of child.childNodes) if (flag.type === 'converter-flag') flags.push(String(flag).trim().toUpperCase());
    }
  }
  if (flags.some((f) => HIDDEN.has(f))) return NOTHING;
  if (flags.some((f) => RAW.has(f))) return { raw: rules.map(String).join(';') };
  const variants = new Map<string, Token>();
  let unnamed: Token | undefined;
  for (const rule of rules) {
    const variant = rule.childNodes.find((c) => c.type === 'converter-rule-variant');
    const to = rule.childNodes.find((c) => c.type === 'converter-rule-to') as Token | undefined;
    if (to === undefined) continue;
    if (variant === undefined) unnamed ??= to;
    else {
      const name = String(variant).trim().toLowerCase();
      if (!variants.has(name)) variants.set(name, to);
    }
  }
  if (variants.size === 0) return unnamed === undefined ? NOTHING : { nodes: unnamed.childNodes };
  const chosen = language === undefined ? undefined : [language, ...languageFallbacks(language)].find((code) => variants.has(code));
  const to = chosen === undefined ? [...variants.values()][0]! : variants.get(chosen)!;
  return { nodes: to.childNodes };
}
