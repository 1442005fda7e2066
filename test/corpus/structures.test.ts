/** scripts/conformance/structures.ts: the shares the conformance report and gate read. */
import { describe, expect, it } from 'vitest';
import type { Row, Structures } from '../../scripts/conformance/score.js';
import { shareStat, sharesOf } from '../../scripts/conformance/structures.js';

const counts = (over: Partial<Structures>): Structures => ({
  language: 'en', tables: 0, tablesWithCellLinks: 0, references: 0, referencesWithMetadata: 0, citableReferences: 0,
  citableWithTitle: 0, markersInInput: 0, citations: 0, citationsResolving: 0, infoboxFields: 0, emptyInfoboxFields: 0,
  ...over,
});
const row = (name: string, over: Partial<Structures>): Row => ({ name, kind: 'html', hasAbstract: true, hasSections: true, structures: counts(over) });

describe('structure shares', () => {
  it('divide each part by its whole, and leave out what an article has none of', () => {
    expect(sharesOf(counts({ tables: 4, tablesWithCellLinks: 3, citableReferences: 10, citableWithTitle: 9, infoboxFields: 20, emptyInfoboxFields: 1 }))).toStrictEqual({
      tablesWithCellLinks: 0.75,
      referencesWithTitle: 0.9,
      emptyInfoboxFields: 0.05,
    });
    expect(sharesOf(counts({})), 'an empty article has no shares').toStrictEqual({});
  });

  it('cap markers cited at 1 (one marker can hold two citations)', () => {
    expect(sharesOf(counts({ markersInInput: 2, citations: 3, citationsResolving: 3 }))).toStrictEqual({ citationsResolving: 1, markersCited: 1 });
  });

  it('name the worst article by the bad end of each share', () => {
    const rows = [row('a', { infoboxFields: 10, emptyInfoboxFields: 0, citations: 4, citationsResolving: 4 }), row('b', { infoboxFields: 10, emptyInfoboxFields: 2, citations: 4, citationsResolving: 3 }), row('c', {})];
    expect(shareStat(rows, 'emptyInfoboxFields')).toStrictEqual({ mean: 0.1, median: 0.1, worst: 0.2, worstArticle: 'b', n: 2 });
    expect(shareStat(rows, 'citationsResolving')).toMatchObject({ worst: 0.75, worstArticle: 'b', n: 2 });
  });
});
