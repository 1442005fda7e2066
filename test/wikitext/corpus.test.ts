import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parseRecord, wikitextRecordOf } from '../../src/index.js';
import type { Part } from '../../src/index.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';

const dir = corpusDir();
const folder = dir === undefined ? undefined : join(dir, 'articles');
const files = folder !== undefined && existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort() : [];
if (files.length === 0) console.log('wikitext corpus test: ../shared/corpus/articles not found, skipped');

const countSections = (parts: readonly Part[] | undefined): number =>
  (parts ?? []).reduce((n, p) => n + (p.type === 'section' ? 1 + countSections(p.has_parts) : 0), 0);

describe.skipIf(files.length === 0)('parseWikitext on the corpus envelopes', () => {
  it.each(files)('%s parses and validates', (file) => {
    const envelope = JSON.parse(readFileSync(join(folder!, file), 'utf8')) as unknown;
    const record = wikitextRecordOf(envelope);
    expect(record, 'envelope carries wikitext').toBeDefined();
    const article = parseRecord(record!);
    const result = ArticleSchema.safeParse(article);
    expect(result.success, `validates: ${result.success ? '' : JSON.stringify(result.error.issues[0])}`).toBe(true);
    expect(article.name, 'name from the envelope').toBe(record!.meta.name);
    expect((article.abstract ?? '').length, 'has an abstract').toBeGreaterThan(50);
    expect(countSections(article.sections), 'has sections besides the lead').toBeGreaterThan(1);
    const ids = new Set(article.references.map((r) => r.identifier));
    expect(ids.size, 'reference identifiers unique').toBe(article.references.length);
  }, 120_000);
});
