/**
 * Invariants of the structured objects, on generated pages full of tables (random spans, invalid
 * span values, nested tables) and reference markers (some pointing nowhere, some ids duplicated).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parse } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';

const spanValue = fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 4 }).map(String), fc.constantFrom('abc', '-2', '2.5', ''));
const text = fc.stringMatching(/^[a-z ]{0,12}$/);
const markerId = fc.integer({ min: 1, max: 8 });

const marker = markerId.map(
  (n) => `<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./P#cite_note-${n}"><span class="mw-reflink-text">[${n}]</span></a></sup>`,
);

const cell = fc
  .record({ th: fc.boolean(), colspan: spanValue, rowspan: spanValue, body: text, cite: fc.option(marker, { nil: undefined }) })
  .map(({ th, colspan, rowspan, body, cite }) => {
    const tag = th ? 'th' : 'td';
    const attrs = `${colspan === undefined ? '' : ` colspan="${colspan}"`}${rowspan === undefined ? '' : ` rowspan="${rowspan}"`}`;
    return `<${tag}${attrs}>${body}${cite ?? ''}</${tag}>`;
  });

const row = fc.array(cell, { minLength: 0, maxLength: 5 }).map((cells) => `<tr>${cells.join('')}</tr>`);

const table: fc.Arbitrary<string> = fc.letrec((tie) => ({
  table: fc
    .record({
      cls: fc.constantFrom('wikitable', 'wikitable sortable', '', 'infobox', 'navbox'),
      rows: fc.array(row, { minLength: 0, maxLength: 6 }),
      nested: fc.option(tie('table'), { nil: undefined, depthSize: 'small' }),
    })
    .map(({ cls, rows, nested }) => `<table class="${cls}">${rows.join('')}${nested === undefined ? '' : `<tr><td>${nested}</td></tr>`}</table>`),
})).table as fc.Arbitrary<string>;

const paragraph = fc.tuple(text, fc.array(marker, { maxLength: 3 })).map(([t, ms]) => `<p>${t}${ms.join('')}</p>`);

const referenceList = fc
  .array(markerId, { maxLength: 8 })
  .map((ids) => `<ol class="mw-references references">${ids.map((n) => `<li id="cite_note-${n}"><span class="mw-reference-text">Ref ${n}</span></li>`).join('')}</ol>`);

const page = fc
  .tuple(fc.array(fc.oneof(paragraph, table), { maxLength: 6 }), fc.array(fc.oneof(paragraph, table), { maxLength: 6 }), referenceList)
  .map(
    ([lead, body, refs]) =>
      `<html><head><base href="//en.wikipedia.org/wiki/"/><title>P</title></head><body>` +
      `<section data-mw-section-id="0">${lead.join('')}</section>` +
      `<section data-mw-section-id="1"><h2>Body</h2>${body.join('')}</section>` +
      `<section data-mw-section-id="2"><h2>References</h2>${refs}</section></body></html>`,
  );

function allParts(article: Article): Part[] {
  const out: Part[] = [];
  const stack = [...article.sections, ...article.infoboxes];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(p.has_parts ?? []));
  }
  return out;
}

describe('structured objects, on generated pages', () => {
  it('every table reference resolves to exactly one table, and every table is referenced', () => {
    fc.assert(
      fc.property(page, (html) => {
        const a = parse(html);
        const ids = a.tables.map((t) => t.identifier);
        const referenced = allParts(a).flatMap((p) => p.table_references ?? []);
        for (const ref of referenced) expect(ids.filter((id) => id === ref.identifier)).toHaveLength(1);
        expect(new Set(referenced.map((r) => r.identifier))).toEqual(new Set(ids));
      }),
      { numRuns: 150 },
    );
  });

  it('every citation resolves to exactly one reference', () => {
    fc.assert(
      fc.property(page, (html) => {
        const a = parse(html);
        for (const c of allParts(a).flatMap((p) => p.citations ?? [])) {
          expect(a.references.filter((r) => r.identifier === c.identifier)).toHaveLength(1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('every grid is rectangular, every score is in [0, 1], and the Article validates', () => {
    fc.assert(
      fc.property(page, (html) => {
        const a = parse(html);
        expect(ArticleSchema.safeParse(a).success).toBe(true);
        for (const t of a.tables) {
          const grid = [...t.headers, ...t.rows];
          const widths = new Set(grid.map((r) => r.length));
          expect(widths.size, `table ${t.identifier} is rectangular`).toBeLessThanOrEqual(1);
          expect(t.confidence_score).toBeGreaterThanOrEqual(0);
          expect(t.confidence_score).toBeLessThanOrEqual(1);
        }
        for (const p of allParts(a)) {
          for (const r of p.table_references ?? []) {
            expect(r.confidence_score).toBe(a.tables.find((t) => t.identifier === r.identifier)!.confidence_score);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
