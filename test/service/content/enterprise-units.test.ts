/**
 * The pure parts of the Enterprise endpoints: byte ranges (property-tested against a reference
 * reading of RFC 9110), the article model built from any stored metadata, field paths of the
 * models, and grammar/metadata.json kept in step with grammar/projects.json.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import metadata from '../../../grammar/metadata.json' with { type: 'json' };
import projects from '../../../grammar/projects.json' with { type: 'json' };
import sections from '../../../grammar/sections.json' with { type: 'json' };
import { enterpriseArticle, articleUrl } from '../../../src/service/content/enterprise/article-reply.js';
import { matchesFilters } from '../../../src/service/routes/v2/listing.js';
import { project } from '../../../src/service/content/enterprise/metadata.js';
import { EnterpriseArticleModel, ProjectModel } from '../../../src/service/content/enterprise/models.js';
import { compileSelection, modelPath, UnknownFieldError, selectValue } from '../../../src/service/content/fields.js';
import { ifRangeHolds, rangeOf } from '../../../src/service/snapshots/range.js';

describe('Range', () => {
  test('one range, each form, and what is ignored or unsatisfiable', () => {
    const cases: [string | undefined, number, ReturnType<typeof rangeOf>][] = [
      [undefined, 100, { kind: 'full' }],
      ['bytes=0-9', 100, { kind: 'partial', start: 0, end: 9 }],
      ['bytes=90-', 100, { kind: 'partial', start: 90, end: 99 }],
      ['bytes=-10', 100, { kind: 'partial', start: 90, end: 99 }],
      ['bytes=-1000', 100, { kind: 'partial', start: 0, end: 99 }],
      ['bytes=50-1000', 100, { kind: 'partial', start: 50, end: 99 }],
      ['BYTES = 1 - 2', 100, { kind: 'partial', start: 1, end: 2 }],
      ['bytes=100-', 100, { kind: 'unsatisfiable' }],
      ['bytes=-0', 100, { kind: 'unsatisfiable' }],
      ['bytes=0-0', 0, { kind: 'unsatisfiable' }],
      ['bytes=9-0', 100, { kind: 'full' }],
      ['bytes=0-1,5-6', 100, { kind: 'full' }],
      ['items=0-1', 100, { kind: 'full' }],
      ['bytes=-', 100, { kind: 'full' }],
      ['bytes=a-b', 100, { kind: 'full' }],
    ];
    for (const [header, size, answer] of cases) expect(rangeOf(header, size), `${header} of ${size}`).toEqual(answer);
  });

  test('property: a satisfiable range names exactly the bytes the RFC says, inside the file', () => {
    const spec = fc.oneof(
      fc.tuple(fc.nat(2000), fc.option(fc.nat(2000), { nil: undefined })).map(([a, b]) => ({ first: a, last: b })),
      fc.integer({ min: 1, max: 2000 }).map((n) => ({ suffix: n })),
    );
    fc.assert(
      fc.property(fc.nat(1500), spec, (size, s) => {
        const header = 'suffix' in s ? `bytes=-${s.suffix}` : `bytes=${s.first}-${s.last ?? ''}`;
        const answer = rangeOf(header, size);
        // The reference: the set of byte positions the range selects.
        let from: number;
        let to: number;
        if ('suffix' in s) [from, to] = [Math.max(0, size - s.suffix), size - 1];
        else if (s.last !== undefined && s.last < s.first) return answer.kind === 'full';
        else [from, to] = [s.first, Math.min(s.last ?? size - 1, size - 1)];
        if (from > to || from >= size) return answer.kind === 'unsatisfiable';
        return answer.kind === 'partial' && answer.start === from && answer.end === to && answer.end < size;
      }),
      { numRuns: 2000 },
    );
  });

  test('property: two ranges cut anywhere reassemble the whole file', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.nat(), (size, seed) => {
        const cut = seed % size;
        const a = rangeOf(`bytes=0-${cut}`, size);
        const b = rangeOf(`bytes=${cut + 1}-`, size);
        const lengthA = a.kind === 'partial' ? a.end - a.start + 1 : -1;
        const lengthB = b.kind === 'partial' ? b.end - b.start + 1 : 0; // nothing left after the last byte
        return lengthA + lengthB === size && (b.kind !== 'partial' || (a.kind === 'partial' && b.start === a.end + 1));
      }),
    );
  });

  test('If-Range: the current strong tag or date only', () => {
    const etag = '"abc"';
    const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
    expect([undefined, '"abc"', 'W/"abc"', '"old"', date, 'Fri, 02 Jan 2026 00:00:00 GMT'].map((v) => ifRangeHolds(v, etag, date))).toEqual([true, true, false, false, true, false]);
  });
});

describe('the Enterprise Article of a stored row', () => {
  const row = (meta: Record<string, unknown>) => ({ project: 'enwiki', title: 'Ada Lovelace', revision: 7, language: 'en', page_id: 3, html: '<p>x</p>', wikitext: null, meta });

  test('property: whatever the stored metadata holds, the reply fits the model and keeps the stored keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...Object.keys(EnterpriseArticleModel.shape), 'unknown_key'), fc.jsonValue()), (meta) => {
        const article = enterpriseArticle(row(meta));
        const parsed = EnterpriseArticleModel.safeParse(article);
        return parsed.success && article.version.identifier === 7 && article.is_part_of.identifier === 'enwiki' && !('unknown_key' in article);
      }),
      { numRuns: 500 },
    );
  });

  test('a malformed member of the version loses only itself; the stored revision is the identifier', () => {
    const version = { identifier: 'not a number', comment: 'copy-edit', size: { value: 'big', unit_text: 'B' }, editor: { identifier: 5, name: 'Ada' }, tags: ['mobile edit', 3], noindex: false, unknown: 1 };
    expect(enterpriseArticle(row({ version })).version).toEqual({ identifier: 7, comment: 'copy-edit', editor: { identifier: 5, name: 'Ada' }, noindex: false });
    expect(enterpriseArticle(row({ version: 'garbage' })).version, 'no object: the identifier alone').toEqual({ identifier: 7 });
  });

  test('URLs are written as MediaWiki writes them', () => {
    expect(articleUrl('en.wikipedia.org', 'AC/DC: the band (1973)')).toBe('https://en.wikipedia.org/wiki/AC/DC:_the_band_(1973)');
    expect(articleUrl('fr.wikipedia.org', 'Joséphine Baker ?')).toBe('https://fr.wikipedia.org/wiki/Jos%C3%A9phine_Baker_%3F');
  });
});

describe('field paths of the models', () => {
  test('paths through objects, arrays and maps; unknown ones named', () => {
    expect(() => modelPath(EnterpriseArticleModel, 'Article', 'version.scores.revertrisk.prediction'), 'a map takes any key').not.toThrow();
    expect(() => modelPath(EnterpriseArticleModel, 'Article', 'categories.name'), 'inside an array').not.toThrow();
    expect(() => modelPath(ProjectModel, 'Project', 'in_language.colour')).toThrow(new UnknownFieldError('unknown field "colour" in "in_language"; expected one of identifier, name, alternate_name, direction'));
    expect(() => modelPath(ProjectModel, 'Project', 'url.host')).toThrow(new UnknownFieldError('"url" has no sub-fields'));
    const selection = compileSelection(['in_language.identifier', 'identifier', 'in_language'], ProjectModel, 'Project');
    const enwiki = project('enwiki')!;
    expect(selectValue(enwiki, selection), 'the wider path wins').toEqual({ identifier: 'enwiki', in_language: enwiki.in_language });
  });

  test('list filters compare as text and look inside arrays', () => {
    expect(matchesFilters({ identifier: 0 }, [{ field: 'identifier', value: '0' }]), '"0" matches 0').toBe(true);
    expect(matchesFilters({ tags: [{ name: 'a' }, { name: 'b' }] }, [{ field: 'tags.name', value: 'b' }]), 'any element').toBe(true);
    expect(matchesFilters({ identifier: 'x' }, [{ field: 'identifier', value: 'x' }, { field: 'name', value: 'y' }]), 'AND').toBe(false);
  });
});

describe('grammar/metadata.json', () => {
  test('names every project family of grammar/projects.json, and nothing else', () => {
    const families = projects.families.map((f) => f.code.replace('{lang}', '')).sort();
    expect(metadata.codes.map((c) => c.match).sort()).toEqual(families);
  });

  test('names every language whose boilerplate sections the engine knows', () => {
    const languages = Object.keys(sections.boilerplate).filter((l) => l !== '*' && l !== 'simple');
    const named = new Set(metadata.languages.map((l) => l.match));
    expect(languages.filter((l) => !named.has(l)), 'unnamed').toEqual([]);
  });
});
