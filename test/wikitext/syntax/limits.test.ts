/**
 * The syntax tree's size limits: a token's children are appended in a loop, never spread into a
 * call (whose arguments live on the stack: ~120,000 of them overflow it, and the page would be read
 * as plain text instead of parsed).
 */
import { describe, expect, it } from 'vitest';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { wikiProfile } from '../../../src/engine/wiki/profile.js';

describe('syntax tree size', () => {
  it('builds a page of 400,000 top-level nodes', () => {
    const root = parseWikitextTree('<!---->x'.repeat(200_000), parserConfig(wikiProfile()));
    expect(root.childNodes).toHaveLength(400_000);
    expect(root.childNodes[399_999]!.previousSibling).toBe(root.childNodes[399_998]);
  });

  it('reads a list line of 200,000 markers', () => {
    const root = parseWikitextTree(`;${';:'.repeat(100_000)} x`, parserConfig(wikiProfile()));
    expect(String(root)).toBe(`;${';:'.repeat(100_000)} x`);
  });
});
