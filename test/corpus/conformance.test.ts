/**
 * The conformance gate: `npm run conformance`'s measures over ../shared/corpus, with floors, so a
 * change that makes the output agree less with the production parser fails the build. Means are
 * held at the README's targets; each article must stay above what the worst article achieved when
 * the gate was set, minus a small margin (docs/conformance.md). Skipped when the corpus is absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusCases, corpusDir } from '../../scripts/conformance/corpus.js';
import type { Measure, Row } from '../../scripts/conformance/score.js';
import { score, stat, structureTotals } from '../../scripts/conformance/score.js';

const dir = corpusDir();
if (dir === undefined) console.log('conformance gate skipped: ../shared/corpus not found (set WIKISTRUCT_CORPUS)');

/** mean: the README targets; article: the worst article's value when the gate was set, less 0.03. */
const FLOORS: Record<Measure, { mean: number; article: number; label: string }> = {
  abstractF1: { mean: 0.95, article: 0.8, label: 'abstract token F1' },
  headings: { mean: 0.95, article: 0.63, label: 'section headings' },
  bodyF1: { mean: 0.92, article: 0.67, label: 'section body token F1' },
  infoboxFields: { mean: 0.85, article: 0.4, label: 'infobox fields' },
};

describe.skipIf(dir === undefined)('conformance gate (../shared/corpus against the production parser)', () => {
  let rows: Row[] = [];
  beforeAll(() => {
    rows = corpusCases(dir!).map(score);
  }, 300_000);

  it('scores every article that has a reference output', () => {
    expect(rows.length).toBeGreaterThanOrEqual(70);
    expect(stat(rows, 'abstractF1').n, 'articles with a scored abstract').toBeGreaterThanOrEqual(60);
    expect(stat(rows, 'infoboxFields').n, 'articles with scored infobox fields').toBeGreaterThanOrEqual(45);
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
});
