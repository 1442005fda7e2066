/**
 * grammar/generated/ is what scripts/generate-wiki-data.ts writes from ../shared/data, byte for
 * byte (a stale check: regenerated in memory whenever ../shared/data is present), and every
 * entry decodes back to its source (the generator refuses to write otherwise; here on the
 * committed files, for the spot checks of ../shared/data/README.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineWikiFiles, OUTPUTS, readSharedData, sharedDataDir } from '../../../scripts/generate-wiki-data.js';
import { languageData, wikiData } from '../../../src/engine/wiki/data.js';

const dir = sharedDataDir();
if (dir === undefined) console.log('generated wiki data: ../shared/data not found, stale check skipped');

describe('grammar/generated (per-wiki facts)', () => {
  it.skipIf(dir === undefined)('is what the generator writes from ../shared/data today (npm run generate:wiki-data)', () => {
    const files = engineWikiFiles(readSharedData(dir!));
    for (const key of Object.keys(OUTPUTS) as (keyof typeof OUTPUTS)[]) {
      expect(readFileSync(OUTPUTS[key], 'utf8') === files[key], `${OUTPUTS[key]} is stale: run npm run generate:wiki-data`).toBe(true);
    }
  }, 60_000);

  it.skipIf(dir === undefined)('decodes every language and wiki to its source', () => {
    const data = readSharedData(dir!);
    for (const [code, source] of Object.entries(data.namespaces.languages)) {
      const facts = languageData(code)!;
      expect(facts.names, code).toEqual(source.names);
      expect(facts.aliases, code).toEqual(source.aliases);
      expect(facts.gender, code).toEqual(source.gender_aliases);
      expect(facts.magicWords, code).toEqual(data.magicWords.languages[code]);
    }
    for (const [db, w] of Object.entries(data.wikis.wikis)) {
      const facts = wikiData(db)!;
      expect([facts.family, facts.language, facts.host, facts.capitalLinks, facts.metaNamespace], db).toEqual([w.family, w.lang, w.host, w.capital_links, w.meta_namespace]);
      expect(facts.extraNamespaces, db).toEqual(w.extra_namespaces ?? {});
      expect(facts.namespaceAliases, db).toEqual(w.namespace_aliases ?? {});
    }
  }, 60_000);

  it('holds the spot checks of ../shared/data/README.md', () => {
    expect(languageData('de')!.names['6']).toBe('Datei');
    expect(languageData('de')!.aliases['Bild']).toBe(6);
    expect(languageData('ja')!.names['14']).toBe('カテゴリ');
    expect(languageData('ru')!.names['10']).toBe('Шаблон');
    expect(languageData('de')!.magicWords['img_thumbnail']).toEqual(['mini', 'miniatur', 'thumb', 'thumbnail']);
    expect(wikiData('enwiki')!.host).toBe('en.wikipedia.org');
    expect(wikiData('simplewiki')!.language).toBe('en');
    expect(wikiData('be_x_oldwiki')!.host).toBe('be-tarask.wikipedia.org');
    expect(wikiData('jawiki')!.extraNamespaces['10']).toBe('Template');
  });
});
