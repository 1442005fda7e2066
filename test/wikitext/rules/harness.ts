/**
 * A wikitext rule alone: the page parsed by the door's own parser (src/engine/wikitext/syntax, as
 * parseWikitext parses it), a real walker and collector around the rule, no mocks.
 */
import { expect } from 'vitest';
import type { AstNodes, Token } from '../../../src/engine/wikitext/syntax/types.js';
import { Collector } from '../../../src/engine/collector.js';
import { boilerplateTitles } from '../../../src/engine/grammar.js';
import { siteFromUrl } from '../../../src/engine/site.js';
import { profileForPage } from '../../../src/engine/wiki/profile.js';
import { WIKITEXT_PRESET } from '../../../src/engine/wikitext/preset.js';
import type { Scope } from '../../../src/engine/wikitext/scope.js';
import { parseTree } from '../../../src/engine/wikitext/tree.js';
import type { WikitextRule } from '../../../src/engine/wikitext/types.js';
import { WikitextWalker } from '../../../src/engine/wikitext/walker.js';

export const scope: Scope = {
  site: siteFromUrl('https://en.wikipedia.org'),
  language: 'en',
  profile: profileForPage(undefined, 'enwiki', 'en'),
  title: 'Test page',
  boilerplate: boilerplateTitles('en'),
};

/** The page's top-level nodes. */
export function topLevel(wikitext: string): readonly AstNodes[] {
  const tree = parseTree(wikitext, scope.profile) as Token;
  return tree.childNodes;
}

/** The first top-level node of this type. */
export function first(wikitext: string, type: string): AstNodes {
  const n = topLevel(wikitext).find((x) => x.type === type);
  if (n === undefined) throw new Error(`no ${type} in ${wikitext}`);
  return n;
}

/** A walker with the whole preset and a fresh collector, for a rule's `run`. */
export function walkerFor(): { walker: WikitextWalker; out: Collector } {
  const out = new Collector();
  return { walker: new WikitextWalker(scope, out, WIKITEXT_PRESET), out };
}

/** Runs one rule on a node; returns the walker (its tree, its footnote uses) and the collector's output. */
export function runRule(rule: WikitextRule, node: AstNodes): { walker: WikitextWalker; out: Collector } {
  const { walker, out } = walkerFor();
  expect(rule.test(node, walker)).toBe(true);
  rule.run(node, walker, out);
  walker.nodes([]); // ends the lines the rule left open
  return { walker, out };
}

/** The whole page through the preset: the walker, the collector's output, the parsed tree and what the collector extracted. */
export function walkPage(wikitext: string) {
  const { walker, out } = walkerFor();
  const tree = parseTree(wikitext, scope.profile)!;
  walker.walk(tree.childNodes);
  return { walker, out, tree, extracted: out.extracted(walker.tree.sections, scope) };
}
