/**
 * Every input of the shared real-article corpus parses and validates, and yields an abstract and
 * section content (the Main Page, a portal without a lead, aside). Skipped when the corpus is absent.
 */
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parse } from '../../src/index.js';
import { corpusCases, corpusDir, loadInput } from '../../scripts/conformance/corpus.js';

const dir = corpusDir();
const cases = dir === undefined ? [] : corpusCases(dir);
if (dir === undefined) console.log('corpus tests skipped: ../shared/corpus not found (set WIKISTRUCT_CORPUS)');

describe.skipIf(dir === undefined)('real-article corpus', () => {
  it('has the inputs ../shared/corpus/README.md promises', () => {
    expect(cases.filter((c) => c.kind === 'html').length).toBeGreaterThanOrEqual(92);
    expect(cases.filter((c) => c.kind === 'envelope').length).toBeGreaterThanOrEqual(12);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s parses, validates and has content', (name, c) => {
    const article = parse(loadInput(c));
    const result = ArticleSchema.safeParse(article);
    expect(result.success, result.success ? '' : JSON.stringify(result.error.issues[0])).toBe(true);
    expect(article.sections[0]!.name).toBe('abstract');
    expect(article.sections.some((s) => (s.has_parts?.length ?? 0) > 0), 'some section has content').toBe(true);
    if (name !== 'Main_page') expect(article.abstract?.length ?? 0, 'has an abstract').toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(article)), 'survives JSON round-trip').toEqual(article);
  });
});
