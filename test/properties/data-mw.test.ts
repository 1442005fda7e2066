/**
 * `data-mw` is page content and can hold anything. The engine reads it best-effort: whatever the
 * attribute holds, `parse` returns a valid Article (never an untyped throw), and a malformed part
 * never hides a well-formed one beside it.
 */
import { escapeAttribute } from 'entities';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, WikistructError, parse } from '../../src/index.js';
import { readDataMw } from '../../src/engine/data-mw.js';
import { dataMwDocument, dataMwValue } from '../../scripts/fuzz/arbitraries.js';

function parseChecked(html: string): ReturnType<typeof parse> {
  let article;
  try {
    article = parse(html);
  } catch (error) {
    expect(error, `only typed errors, got ${String(error)}`).toBeInstanceOf(WikistructError);
    throw error;
  }
  const check = ArticleSchema.safeParse(article);
  expect(check.success, `validates: ${check.success ? '' : JSON.stringify(check.error.issues[0])}`).toBe(true);
  return article;
}

const attribute = (value: string): string => `data-mw="${escapeAttribute(value)}"`;

describe('data-mw of any shape', () => {
  it('documents whose references, infoboxes, transclusions and figures carry arbitrary data-mw parse into valid Articles', () => {
    fc.assert(fc.property(dataMwDocument, (html) => void parseChecked(html)), { numRuns: 200 });
  }, 60_000);

  it('readDataMw returns undefined or fields of the declared types, never throws', () => {
    const str = (v: unknown): boolean => v === undefined || typeof v === 'string';
    fc.assert(
      fc.property(dataMwValue, (value) => {
        const data = readDataMw(value);
        if (data === undefined) return;
        expect(str(data.name) && str(data.attrs.group), 'name and group are strings or absent').toBe(true);
        for (const t of data.templates) {
          expect(str(t.target.wt) && str(t.target.href), 'target fields are strings or absent').toBe(true);
          for (const p of t.params.values()) expect(typeof p, 'param values are strings').toBe('string');
        }
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('the fuzzer\'s crashing shapes: null, and parts whose template is null, a number or an array', () => {
    const shapes = ['null', '{"parts":[null]}', '{"parts":[{"template":null}]}', '{"parts":[{"template":7}]}', '{"parts":[{"template":[]}]}',
      '{"parts":[{"template":{"target":null,"params":null}}]}', '{"parts":[{"template":{"target":{"wt":"Cite web"},"params":{"a":null}}}]}', '{"attrs":null}', '[1,2]', '"x"', '{'];
    for (const shape of shapes) {
      const a = parseChecked(
        `<ol class="mw-references references" typeof="mw:Extension/references" ${attribute(shape)}><li id="cite_note-1"><span class="mw-reference-text">` +
          `<cite typeof="mw:Transclusion" ${attribute(shape)}>Source.</cite></span></li></ol>` +
          `<table class="infobox" typeof="mw:Transclusion" ${attribute(shape)}><tr><th colspan="2">Ada</th></tr><tr><th>Born</th><td>1815</td></tr></table>`,
      );
      expect(a.references.map((r) => r.identifier), `${shape}: the reference is still read`).toEqual(['cite_note-1']);
      expect(a.infoboxes.length, `${shape}: the infobox is still read`).toBe(1);
    }
  });
});

describe('malformed parts do not hide well-formed ones', () => {
  /** Parts that are not a template call, or a template call too broken to name. */
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v) || !('template' in v)),
    fc.constantFrom<unknown>({ template: null }, { template: 5 }, { template: [] }, { template: { target: null } }, { template: { target: { wt: 7, href: null } } }, { template: { target: { wt: '  ' } } }),
  );
  const partsAround = (part: unknown): fc.Arbitrary<unknown[]> =>
    fc.tuple(fc.array(junk, { maxLength: 4 }), fc.array(junk, { maxLength: 4 })).map(([before, after]) => [...before, part, ...after]);

  it('a citation template among junk parts still gives the reference its type and metadata', () => {
    const cite = { template: { target: { wt: 'Cite book', href: './Template:Cite_book' }, params: { title: { wt: ' A Book ' }, year: null, isbn: { wt: 7 }, page: 5, empty: { wt: '' } } } };
    fc.assert(
      fc.property(partsAround(cite), (parts) => {
        const html = `<ol class="references"><li id="cite_note-1"><span class="reference-text"><cite typeof="mw:Transclusion" ${attribute(JSON.stringify({ parts }))}>A Book.</cite></span></li></ol>`;
        const [reference] = parseChecked(html).references;
        expect(reference?.type, 'type from the citation template').toBe('book');
        expect(reference?.metadata, 'only the well-formed parameters').toEqual({ title: 'A Book' });
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('an infobox template among junk parts still names the infobox', () => {
    const box = { template: { target: { wt: 'Infobox person', href: './Template:Infobox_person' }, params: null } };
    fc.assert(
      fc.property(partsAround(box), (parts) => {
        const html = `<style typeof="mw:Transclusion" about="#mwt1" ${attribute(JSON.stringify({ parts }))}></style><table class="infobox" about="#mwt1"><tr><th>Born</th><td>1815</td></tr></table>`;
        expect(parseChecked(html).infoboxes[0]?.name).toBe('Infobox person');
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('parameters named like Object.prototype members are parameters; "__proto__" is dropped, not a prototype', () => {
    const params = { constructor: { wt: 'c' }, toString: { wt: 't' }, ' title ': { wt: 'T' } };
    const raw = JSON.stringify({ parts: [{ template: { target: { wt: 'Cite web' }, params } }] }).replace('{"constructor"', '{"__proto__":{"wt":"p"},"constructor"');
    const html = `<ol class="references"><li id="cite_note-1"><cite typeof="mw:Transclusion" ${attribute(raw)}>x</cite></li></ol>`;
    const reference = parseChecked(html).references[0];
    // The template's own parameters; metadata holds only CS1 names (grammar/citations.json).
    expect(reference?.template?.parameters).toEqual({ constructor: 'c', toString: 't', title: 'T' });
    expect(reference?.metadata).toEqual({ title: 'T' });
    expect(Object.getPrototypeOf(reference?.template?.parameters), 'a plain object').toBe(Object.prototype);
  });

  it('a reference list group is read from attrs.group, and ignored when attrs is malformed', () => {
    const list = (dataMw: string): string => `<ol class="mw-references references" ${attribute(dataMw)}><li id="cite_note-note-1">Note.</li></ol>`;
    expect(parseChecked(list('{"attrs":{"group":"note"}}')).references[0]?.group).toBe('note');
    for (const bad of ['{"attrs":null}', '{"attrs":{"group":5}}', '{"attrs":[]}', 'null', '{"attrs":']) {
      expect(parseChecked(list(bad)).references[0]?.group, bad).toBeNull();
    }
  });
});
