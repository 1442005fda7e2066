/**
 * The oracle of the block stages' tests (html.test.ts, table.test.ts, attributes.test.ts): our
 * tree against wikiparser-node's on a snippet, both stopped before stage `maxStage` (the links
 * stage by default, so that later stages do not blur what these stages made).
 */
import { createRequire } from 'node:module';
import Parser from 'wikiparser-node';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import type { Token } from '../../../src/engine/wikitext/syntax/token.js';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { profileForPage } from '../../../src/engine/wiki/profile.js';
import { compareTrees } from '../../support/wikitext-trees.js';
import { corpusSiteinfo, wikitextCorpusDir } from '../../../scripts/conformance/wikitext-corpus.js';
import type { TreeDifference } from '../../support/wikitext-trees.js';

const require = createRequire(import.meta.url);

const configs = new Map<string, ReturnType<typeof parserConfig>>();

/** The configuration of `language`'s Wikipedia: from the shared corpus's siteinfo where there is one (localized names), else the built-in one. */
export function configFor(language = 'en'): ReturnType<typeof parserConfig> {
  let config = configs.get(language);
  if (config === undefined) {
    const project = `${language}wiki`;
    const folder = wikitextCorpusDir();
    const info = folder === undefined ? undefined : corpusSiteinfo(folder, project);
    config = parserConfig(profileForPage(info?.api ?? info?.dump, project, language));
    configs.set(language, config);
  }
  return config;
}

export function ours(text: string, maxStage = 5, language = 'en'): Token {
  return parseWikitextTree(text, configFor(language), maxStage);
}

/**
 * wikiparser-node's own configuration of a wiki it ships one for (`jawiki`, `zhwiki`, `moegirl`,
 * `llwiki`): localized behaviour switches (`＿＿目次＿＿`), namespaces and tags, which the door's
 * configuration (English words plus the wiki's namespaces) does not have.
 */
export function bundledConfig(name: 'jawiki' | 'zhwiki' | 'moegirl' | 'llwiki'): ReturnType<typeof parserConfig> {
  let config = configs.get(name);
  if (config === undefined) {
    config = Parser.getConfig(require(`wikiparser-node/config/${name}.json`) as never);
    configs.set(name, config);
  }
  return config;
}

/** The differences between both trees of `text` on the wiki of `language` (or with that configuration). */
export function differences(text: string, maxStage = 5, language: string | ReturnType<typeof parserConfig> = 'en'): TreeDifference[] {
  const config = typeof language === 'string' ? configFor(language) : language;
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
