/**
 * `fields` in dot notation: paths checked against the Article zod schema, and the selection taken
 * from the stored JSON text without parsing it whole, which must give exactly what parsing,
 * picking and re-serialising gives (property-tested on arbitrary JSON objects and Articles).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parse } from '../../../src/engine/parse.js';
import { ArticleSchema } from '../../../src/schema/article.js';
import { compileSelection, modelPath, scanTopLevel, selectFields, selectionKey, selectValue, topLevelMembers, UnknownFieldError } from '../../../src/service/content/fields.js';
import { deepHtml, envelope, pageHtml } from './support.js';

const article = parse(envelope({ project: 'enwiki', language: 'en', title: 'Albert Einstein', revision: 10 }));
const json = JSON.stringify(article);
const deep = JSON.stringify(parse(envelope({ project: 'enwiki', language: 'en', title: 'Deep', revision: 13, html: deepHtml(13) })));

/** The obvious implementation the fast one must agree with. */
const reference = (text: string, paths: string[]): unknown => selectValue(JSON.parse(text), compileSelection(paths));

/** Checks one dot path against the Article schema; returns its segments. Throws UnknownFieldError. */
const fieldPath = (path: string): string[] => {
  modelPath(ArticleSchema, 'Article', path);
  return path.split('.');
};

describe('field paths against the Article schema', () => {
  test('known paths: top level, nested objects, through arrays, the recursive Part, map keys', () => {
    for (const path of ['name', 'version', 'version.identifier', 'version.editor.name', 'is_part_of.identifier', 'infoboxes.name', 'sections.has_parts.has_parts.has_parts.value', 'tables.headers.value', 'references.metadata.isbn', 'references.text.links.url']) {
      expect(fieldPath(path), path).toEqual(path.split('.'));
    }
  });

  test('unknown fields are named with what exists there', () => {
    const reason = (path: string) => {
      try {
        fieldPath(path);
        return 'accepted';
      } catch (error) {
        expect(error, path).toBeInstanceOf(UnknownFieldError);
        return (error as Error).message;
      }
    };
    expect(reason('nonsense'), 'top level').toMatch(/^unknown Article field "nonsense"; expected one of name, identifier, url, version, /);
    expect(reason('version.nope'), 'nested').toBe('unknown field "nope" in "version"; expected one of identifier, comment, tags, is_minor_edit, is_flagged_stable, has_tag_needs_citation, noindex, number_of_characters, size, editor, scores, maintenance_tags');
    expect(reason('sections.has_parts.colour'), 'inside the recursive Part').toMatch(/^unknown field "colour" in "sections.has_parts"; expected one of name, type, value, has_parts, /);
    expect(reason('name.first'), 'a string has no sub-fields').toBe('"name" has no sub-fields');
    expect(reason('references.metadata.isbn.x'), 'nor does a map value').toBe('"references.metadata.isbn" has no sub-fields');
    expect(reason('version..identifier'), 'empty segment').toBe('"version..identifier" is not a field path (names joined by single dots)');
    expect(reason(''), 'empty path').toBe('"" is not a field path (names joined by single dots)');
    expect(reason('__proto__'), 'no prototype keys').toMatch(/^unknown Article field "__proto__"/);
    expect(reason('constructor'), 'no prototype keys').toMatch(/^unknown Article field "constructor"/);
  });

  test('the wider path wins, and the selection key ignores order and overlap', () => {
    const a = compileSelection(['version.identifier', 'name', 'version']);
    const b = compileSelection(['name', 'version']);
    expect(selectionKey(a), 'same meaning, same key').toBe(selectionKey(b));
    expect(selectionKey(compileSelection(['version.identifier', 'version.comment'])), 'nested').toBe('version(comment,identifier)');
    expect(selectionKey(compileSelection(['version.identifier'])), 'differs from the whole object').not.toBe(selectionKey(compileSelection(['version'])));
  });
});

describe('selecting from the stored text', () => {
  test('several fields: exactly those, nested as in the Article, in its key order', () => {
    const text = selectFields(json, compileSelection(['is_part_of.identifier', 'version.identifier', 'name']));
    expect(text, 'exact bytes').toBe('{"name":"Albert Einstein","version":{"identifier":10},"is_part_of":{"identifier":"enwiki"}}');
  });

  test('2024 names (article_sections, infobox) select their members and answer under the name asked for', () => {
    const asked = JSON.parse(selectFields(json, compileSelection(['abstract', 'article_sections.name', 'infobox']))) as Record<string, unknown>;
    expect(Object.keys(asked), 'the names asked for, in the Article order').toEqual(['abstract', 'article_sections', 'infobox']);
    expect(asked['article_sections'], 'the sections').toEqual(article.sections.map((s) => ({ name: s.name })));
    expect(asked['infobox'], 'the infoboxes').toEqual(article.infoboxes);
    expect(() => compileSelection(['article_sections.colour']), 'sub-fields checked against the member').toThrow('unknown field "colour" in "article_sections"');
    expect(() => modelPath(ArticleSchema, 'Article', 'infobox'), 'the Article only: another model has no 2024 names').not.toThrow();
  });

  test('an object whole, an array field inside every element, absent fields left out', () => {
    expect(JSON.parse(selectFields(json, compileSelection(['version']))), 'object').toEqual({ version: article.version });
    const sections = JSON.parse(selectFields(json, compileSelection(['sections.name']))) as { sections: unknown[] };
    expect(sections.sections, 'one entry per section').toEqual(article.sections.map((s) => ({ name: s.name })));
    expect(selectFields(json, compileSelection(['description'])), 'absent: nothing').toBe('{}');
  });

  test('a 60-level Part tree: a deep path agrees with parse-and-pick', () => {
    const path = ['sections.has_parts.has_parts.has_parts.has_parts.value', 'sections.name'];
    expect(JSON.parse(selectFields(deep, compileSelection(path))), 'same as parsing').toEqual(reference(deep, path));
  });

  test('members taken whole are copied byte for byte', () => {
    for (const { key, start, end } of topLevelMembers(json)) {
      expect(json.slice(start, end), key).toBe(JSON.stringify((article as Record<string, unknown>)[key]));
    }
  });

  test('the scan stops once every field asked for is found', () => {
    const visited: string[] = [];
    const selection = compileSelection(['name']);
    scanTopLevel(json, (key) => {
      visited.push(key);
      return !selection.has(key);
    });
    expect(visited, 'name is first: nothing after it is scanned').toEqual(['name']);
  });

  test('property: on any JSON object, the scan finds every member and selection equals parse-and-pick', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"', '\\', '\\"', '{', '}', '[', ']', '\u0000', '\u2028', '\ud83d\ude00'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), text, fc.array(tie('value'), { maxLength: 4 }), tie('object')),
      object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
    })).object;
    fc.assert(
      fc.property(json, fc.constantFrom(0, 2), (object, indent) => {
        const serialized = JSON.stringify(object, null, indent);
        const members = topLevelMembers(serialized);
        // The oracle is parse-and-pick of the same text: JSON itself turns -0 into 0.
        const parsed = JSON.parse(serialized) as Record<string, unknown>;
        expect(members.map((m) => m.key), 'keys in order').toEqual(Object.keys(parsed));
        for (const m of members) expect(JSON.parse(serialized.slice(m.start, m.end)), m.key).toEqual(parsed[m.key]);
      }),
      { numRuns: 300 },
    );
  });

  test('property: any set of real paths on a real Article gives what parse-and-pick gives', () => {
    const paths = fc.subarray(['name', 'identifier', 'abstract', 'version', 'version.identifier', 'is_part_of.identifier', 'is_part_of', 'license.name', 'license.url', 'sections', 'sections.name', 'sections.has_parts.value', 'sections.has_parts.links.url', 'infoboxes.name', 'tables.rows.value', 'references.metadata.title', 'in_language'], { minLength: 1 });
    const articles = [json, deep, JSON.stringify(parse(envelope({ project: 'frwiki', language: 'fr', title: 'Édith "Piaf"', revision: 3, html: pageHtml('frwiki', 'Édith "Piaf"', 3, 'Lead with \\ and "quotes" and \u2028.') })))];
    fc.assert(
      fc.property(paths, fc.constantFrom(...articles), (chosen, text) => {
        const ours = selectFields(text, compileSelection(chosen));
        expect(ours, 'same JSON text as parse, pick, stringify').toBe(JSON.stringify(reference(text, chosen)));
      }),
      { numRuns: 300 },
    );
  });
});
