/**
 * A label over a table of its own inside an infobox (infobox/html.ts tableRow), nested: each level's
 * field holds its own links and those of the rows below, each link once. Counted per path, a link
 * at depth d came back 2^d times: a 229 KB page of nested infobox tables, found by the fuzzer, took
 * half a minute (item-text.ts gatherItems).
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import type { Part } from '../../src/index.js';

/** Rows "Level d" over a table holding the next level, each with one link of its own, `depth` deep. */
function nestedRows(depth: number, level = 1): string {
  const link = `<a rel="mw:WikiLink" href="./Target_${level}" title="Target ${level}">target ${level}</a>`;
  const below = level < depth ? `<table><tbody>${nestedRows(depth, level + 1)}</tbody></table>` : '';
  return `<tr><th>Level ${level}</th><td>${link}${below}</td></tr>`;
}

function page(depth: number): string {
  return `<html><head><base href="//en.wikipedia.org/wiki/"/><title>Nested</title></head><body><section data-mw-section-id="0"><table class="infobox"><tbody>${nestedRows(depth)}</tbody></table><p>Nested is a page.</p></section></body></html>`;
}

const fieldsOf = (parts: readonly Part[] | undefined): Part[] => (parts ?? []).flatMap((p) => (p.type === 'field' ? [p] : fieldsOf(p.has_parts)));

describe('nested tables in an infobox', () => {
  it('give every field each link below it once, at any depth', () => {
    for (const depth of [2, 3, 8, 24]) {
      const [box] = parse(page(depth)).infoboxes ?? [];
      const [outer] = fieldsOf(box?.has_parts);
      expect(outer?.name).toBe('Level 1');
      const urls = (outer?.links ?? []).map((l) => l.url);
      expect(urls).toHaveLength(depth);
      expect(new Set(urls).size).toBe(depth);
    }
  });
});
