/**
 * The one back half (src/engine/article.ts), on hand-made extractions: what each door hands over
 * is plain data, so precedence, derivations and key order are checked without either door.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleArticle } from '../../src/engine/article.js';
import type { ArticleFields } from '../../src/engine/article.js';
import type { Extracted } from '../../src/engine/extracted.js';
import { siteFromUrl } from '../../src/engine/site.js';
import { ArticleSchema } from '../../src/schema/article.js';
import type { Citation, Part, Reference } from '../../src/schema/article.js';

const ref = (identifier: string, value: string): Reference => ({ identifier, group: null, type: 'web', metadata: {}, text: { value } });
const cite = (identifier: string): Citation => ({ identifier, text: '[1]' });
const lead = (parts: Part[] = []): Part => ({ name: 'abstract', type: 'section', has_parts: parts });

function extraction(overrides: Partial<Extracted> = {}): Extracted {
  return { sections: [lead()], lead: [], infoboxes: [], tables: [], references: [], ...overrides };
}

/** The Article's key order, written out: metadata first, the body last. */
const ORDER = [
  'name', 'identifier', 'abstract', 'description', 'url', 'date_created', 'date_modified', 'version',
  'main_entity', 'additional_entities', 'is_part_of', 'in_language', 'namespace', 'image', 'license',
  'sections', 'infoboxes', 'tables', 'references',
];

/** One value of every metadata field, in output shape. */
const ALL_FIELDS: Required<ArticleFields> = {
  name: 'Zeta',
  identifier: 26,
  url: 'https://en.wikipedia.org/wiki/Zeta',
  version: { identifier: 260 },
  date_created: '2001-01-01T00:00:00Z',
  date_modified: '2024-01-01T00:00:00Z',
  is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
  in_language: { identifier: 'en' },
  namespace: { identifier: 0 },
  main_entity: { identifier: 'Q1', url: 'https://www.wikidata.org/entity/Q1' },
  additional_entities: [{ identifier: 'Q2', url: 'https://www.wikidata.org/entity/Q2' }],
  license: [{ identifier: 'CC-BY-SA-4.0', name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' }],
  image: { content_url: 'https://upload.wikimedia.org/z.png' },
  description: 'Greek letter',
};

describe('assembleArticle', () => {
  it('keeps the first of references listed twice, and drops citations to references the page does not list', () => {
    const cited: Part = {
      type: 'paragraph',
      value: 'Text.',
      citations: [cite('cite_note-a'), cite('cite_note-missing')],
    };
    const orphan: Part = { type: 'paragraph', value: 'More.', citations: [cite('cite_note-gone')] };
    const infobox: Part = { type: 'infobox', has_parts: [{ type: 'field', name: 'Born', value: '1900', citations: [cite('cite_note-b')] }] };
    const article = assembleArticle(
      extraction({
        sections: [lead([cited, orphan])],
        infoboxes: [infobox],
        references: [
          ref('cite_note-a', 'First A'),
          ref('cite_note-b', 'B'),
          ref('cite_note-a', 'Second A'),
        ],
      }),
      { fields: {} },
    );
    expect(article.references.map((r) => [r.identifier, r.text?.value]), 'first A, B').toEqual([
      ['cite_note-a', 'First A'],
      ['cite_note-b', 'B'],
    ]);
    const [paragraph, more] = article.sections[0]!.has_parts!;
    expect(paragraph!.citations, 'the unknown citation dropped').toEqual([cite('cite_note-a')]);
    expect(more!.citations, 'no citation left: the key goes').toBeUndefined();
    expect(article.infoboxes[0]!.has_parts![0]!.citations, 'infobox citations resolved too').toEqual([cite('cite_note-b')]);
  });

  it('takes a description from the fields over the one the body carries, and the body\'s when the fields have none', () => {
    const body = extraction({ description: 'from the body' });
    expect(assembleArticle(body, { fields: { description: 'from the envelope' } }).description).toBe('from the envelope');
    expect(assembleArticle(body, { fields: {} }).description).toBe('from the body');
    expect(assembleArticle(extraction(), { fields: {} }), 'none anywhere: no key').not.toHaveProperty('description');
  });

  it('builds the abstract from the lead lines, and leaves it out when the lead has no text', () => {
    const list: Part = { type: 'list', has_parts: [{ type: 'list_item', value: 'one' }, { type: 'list_item', value: 'two' }] };
    const article = assembleArticle(extraction({ lead: [{ text: 'Zeta is a letter. They are:' }, { list }] }), { fields: {} });
    expect(article.abstract).toBe('Zeta is a letter. They are:\n- one\n- two');
    expect(assembleArticle(extraction({ lead: [{ text: '' }] }), { fields: {} })).not.toHaveProperty('abstract');
  });

  it('derives is_part_of from the project and the site, and in_language from the language, unless the fields give them', () => {
    const site = siteFromUrl('https://fr.wikipedia.org/wiki/Zeta');
    expect(site?.project, 'the site knows its project').toBe('frwiki');
    const derived = assembleArticle(extraction(), { fields: {}, site, language: 'fr' });
    expect(derived.is_part_of).toEqual({ identifier: 'frwiki', url: 'https://fr.wikipedia.org' });
    expect(derived.in_language).toEqual({ identifier: 'fr' });
    expect(assembleArticle(extraction(), { fields: {}, site, project: 'frwikisource' }).is_part_of, 'a given project code wins over the site\'s').toEqual({
      identifier: 'frwikisource',
      url: 'https://fr.wikipedia.org',
    });
    expect(assembleArticle(extraction(), { fields: {}, project: 'xxwiki' }).is_part_of, 'no site: the code alone').toEqual({ identifier: 'xxwiki' });
    const given = assembleArticle(extraction(), { fields: { is_part_of: { identifier: 'enwiki' }, in_language: { identifier: 'en' } }, site, language: 'fr' });
    expect(given.is_part_of, 'the fields win').toEqual({ identifier: 'enwiki' });
    expect(given.in_language, 'the fields win').toEqual({ identifier: 'en' });
    const bare = assembleArticle(extraction(), { fields: {} });
    expect(bare, 'nothing known: nothing made up').not.toHaveProperty('is_part_of');
    expect(bare).not.toHaveProperty('in_language');
  });

  it('lists every metadata field of the schema, in one key order whatever order the fields come in', () => {
    const metadataKeys = Object.keys(ArticleSchema.shape).filter((k) => !['sections', 'infoboxes', 'tables', 'references', 'abstract'].includes(k));
    expect(new Set(Object.keys(ALL_FIELDS)), 'this test covers every field of the schema').toEqual(new Set(metadataKeys));
    expect(new Set(ORDER), 'the order covers every key of the schema').toEqual(new Set(Object.keys(ArticleSchema.shape)));
    const keys = Object.keys(ALL_FIELDS) as (keyof ArticleFields)[];
    fc.assert(
      fc.property(fc.shuffledSubarray(keys), fc.boolean(), (chosen, withAbstract) => {
        const fields: ArticleFields = {};
        for (const k of chosen) (fields as Record<string, unknown>)[k] = ALL_FIELDS[k];
        const article = assembleArticle(extraction(withAbstract ? { lead: [{ text: 'Text.' }] } : {}), { fields });
        const expected = ORDER.filter((k) => (chosen as string[]).includes(k) || ['sections', 'infoboxes', 'tables', 'references'].includes(k) || (withAbstract && k === 'abstract'));
        expect(Object.keys(article)).toEqual(expected);
        for (const k of chosen) expect(article[k], k).toEqual(ALL_FIELDS[k]);
      }),
    );
  });
});
