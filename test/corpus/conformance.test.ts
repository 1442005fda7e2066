/**
 * The conformance gate: `npm run conformance`'s measures over ../shared/corpus, with floors, so a
 * change that makes the output agree less with the production parser fails the build. Means are
 * held at the README's targets; each article must stay above what the worst article achieved when
 * the gate was set, minus a small margin (docs/conformance.md). Skipped when the corpus is absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusCases, corpusDir } from '../../scripts/conformance/corpus.js';
import type { Measure, Row } from '../../scripts/conformance/score.js';
import { BROKEN_REFERENCES, score, stat, structureTotals } from '../../scripts/conformance/score.js';
import type { StructureShare } from '../../scripts/conformance/structures.js';
import { SHARES, shareStat, sharesOf } from '../../scripts/conformance/structures.js';

const dir = corpusDir();
if (dir === undefined) console.log('conformance gate skipped: ../shared/corpus not found (set WIKISTRUCT_CORPUS)');

/**
 * mean: the README targets (issue 21: 0.98, 0.99, 0.97, 0.96); article: the worst article's value
 * when the floor was last raised, less about 0.03. Raised on the grown corpus (104 inputs), where
 * the worst were Thesaurus 0.993, 1976_Democratic_Party_presidential_primaries 0.905 (its reference
 * nests the whole page in "Background"), ISO_IEC_8895_2 0.708 and Ottoman_Empire 0.625
 * (docs/conformance.md). The two broken reference outputs are left out by name in score.ts.
 */
const FLOORS: Record<Measure, { mean: number; article: number; label: string }> = {
  abstractF1: { mean: 0.98, article: 0.96, label: 'abstract token F1' },
  headings: { mean: 0.99, article: 0.87, label: 'section headings' },
  bodyF1: { mean: 0.97, article: 0.67, label: 'section body token F1' },
  infoboxFields: { mean: 0.96, article: 0.59, label: 'infobox fields' },
};

/**
 * The hand-checkable structures that are stable enough to hold (docs/conformance.md): per article
 * and as a mean, the bound on the bad side of each share. Set at 04:00 UTC on 2026-11-23 from
 * `npm run conformance` (citations resolving: every article 1.000; titled references: mean 0.996,
 * worst 0.822 (Kyoto); empty infobox fields: mean 0.006, worst 0.174 (Ganges, sub-headers read as
 * fields); markers cited: mean 0.971, worst 0.816 (Gad_Elmaleh: markers inside reference texts
 * and dropped boxes). Tables with cell links depend on what the article holds (a table of plain
 * numbers has no links), so that share is reported, not gated.
 */
const SHARE_BOUNDS: Partial<Record<StructureShare, { mean: number; article: number }>> = {
  citationsResolving: { mean: 0.99, article: 0.95 },
  referencesWithTitle: { mean: 0.98, article: 0.8 },
  emptyInfoboxFields: { mean: 0.02, article: 0.2 },
  markersCited: { mean: 0.95, article: 0.78 },
};

describe.skipIf(dir === undefined)('conformance gate (../shared/corpus against the production parser)', () => {
  let rows: Row[] = [];
  beforeAll(() => {
    rows = corpusCases(dir!).map(score);
  }, 300_000);

  it('scores every article that has a reference output', () => {
    expect(rows.length, 'every input of the corpus').toBe(corpusCases(dir!).length);
    expect(rows.filter((r) => r.kind === 'html').length, 'HTML inputs (../shared/corpus/README.md)').toBeGreaterThanOrEqual(92);
    expect(stat(rows, 'abstractF1').n, 'articles with a scored abstract').toBeGreaterThanOrEqual(90);
    expect(stat(rows, 'infoboxFields').n, 'articles with scored infobox fields').toBeGreaterThanOrEqual(70);
  });

  it('leaves out only the reference outputs named as broken, and only for the measures named', () => {
    expect([...BROKEN_REFERENCES.keys()].sort()).toEqual(['1976_Democratic_Party_presidential_primaries', 'Sablon:Infokutija_filozof']);
    const sablon = rows.find((r) => r.name === 'Sablon:Infokutija_filozof');
    const primaries = rows.find((r) => r.name === '1976_Democratic_Party_presidential_primaries');
    expect(sablon, 'Sablon:Infokutija_filozof is in the corpus').toBeDefined();
    expect([sablon?.abstractF1, sablon?.headings, sablon?.bodyF1, sablon?.infoboxFields]).toEqual([undefined, undefined, undefined, undefined]);
    expect(primaries?.abstractF1, 'the broken abstract is not scored').toBeUndefined();
    expect(primaries?.headings, 'its headings still are').toBeDefined();
  });

  for (const [measure, floor] of Object.entries(FLOORS) as [Measure, (typeof FLOORS)[Measure]][]) {
    it(`${floor.label}: mean ≥ ${floor.mean}, every article ≥ ${floor.article}`, () => {
      expect(stat(rows, measure).mean, `${floor.label} mean`).toBeGreaterThanOrEqual(floor.mean);
      const below = rows.filter((r) => r[measure] !== undefined && r[measure] < floor.article).map((r) => `${r.name}: ${r[measure]!.toFixed(3)}`);
      expect(below, `articles below the ${floor.label} floor`).toEqual([]);
    });
  }

  it('every citation resolves to a reference of its article', () => {
    const { all } = structureTotals(rows);
    expect(all.citations).toBeGreaterThan(10_000);
    expect(all.citationsResolving).toBe(all.citations);
  });

  it('references with metadata that cite a work carry a title in every language (CS1 names)', () => {
    for (const s of structureTotals(rows).byLanguage.values()) {
      if (s.citableReferences === 0) continue;
      expect(s.citableWithTitle / s.citableReferences, `${s.language}: ${s.citableWithTitle} of ${s.citableReferences}`).toBeGreaterThanOrEqual(0.98);
    }
  });

  for (const { key, label, better } of SHARES) {
    const bound = SHARE_BOUNDS[key];
    if (bound === undefined) continue;
    const sign = better === 'high' ? '≥' : '≤';
    it(`${label}: mean ${sign} ${bound.mean}, every article ${sign} ${bound.article}`, () => {
      const st = shareStat(rows, key);
      expect(st.n, `articles with ${label}`).toBeGreaterThanOrEqual(30);
      const outside = rows.flatMap((r) => {
        const v = sharesOf(r.structures)[key];
        if (v === undefined) return [];
        return (better === 'high' ? v < bound.article : v > bound.article) ? [`${r.name}: ${v.toFixed(3)}`] : [];
      });
      if (better === 'high') expect(st.mean, `${label} mean`).toBeGreaterThanOrEqual(bound.mean);
      else expect(st.mean, `${label} mean`).toBeLessThanOrEqual(bound.mean);
      expect(outside, `articles past the ${label} bound`).toEqual([]);
    });
  }
});
