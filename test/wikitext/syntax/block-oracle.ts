/**
 * The oracle of the block stages' tests (html.test.ts, table.test.ts, attributes.test.ts): our
 * tree against wikiparser-node's on a snippet, both stopped before stage `maxStage` (the links
 * stage by default, so that later stages do not blur what these stages made).
 */
import Parser from 'wikiparser-node';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import type { Token } from '../../../src/engine/wikitext/syntax/token.js';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { profileForPage } from '../../../src/engine/wiki/profile.js';
import { compareTrees } from '../../support/wikitext-trees.js';
import type { TreeDifference } from '../../support/wikitext-trees.js';

export function configFor(language = 'en'): ReturnType<typeof parserConfig> {
  return parserConfig(profileForPage(undefined, `${language}wiki`, language));
}

export function ours(text: string, maxStage = 5, language = 'en'): Token {
  return parseWikitextTree(text, configFor(language), maxStage);
}

/** The differences between both trees of `text` on the wiki of `language`. */
export function differences(text: string, maxStage = 5, language = 'en'): TreeDifference[] {
  const config = configFor(language);
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  try {
    return compareTrees(parseWikitextTree(text, config, maxStage), Parser.parse(text, false, maxStage, config), 5);
  } finally {
    Parser.viewOnly = viewOnly;
  }
}

interface AnyNode {
  type: string;
  childNodes: readonly AnyNode[];
}

function first(n: AnyNode, type: string): AnyNode | undefined {
  if (n.type === type) return n;
  for (const c of n.childNodes) {
    const f = first(c, type);
    if (f !== undefined) return f;
  }
  return undefined;
}

/** The differences between both trees' first `type` tokens (an extension tag's attributes, whose content other stages own). */
export function differencesIn(text: string, type: string, maxStage = 5, language = 'en'): TreeDifference[] {
  const config = configFor(language);
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  try {
    const a = first(parseWikitextTree(text, config, maxStage) as unknown as AnyNode, type);
    const b = first(Parser.parse(text, false, maxStage, config) as unknown as AnyNode, type);
    if (a === undefined || b === undefined) return [{ path: type, what: 'missing', ours: String(a !== undefined), theirs: String(b !== undefined) }];
    return compareTrees(a as never, b as never, 5);
  } finally {
    Parser.viewOnly = viewOnly;
  }
}
