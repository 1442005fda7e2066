/**
 * The hand-checkable structures of `npm run conformance` as shares per article, with means: the
 * counts of score.ts (`Structures`) say how much there is, these say how good it is, and the CI
 * gate (test/corpus/conformance.test.ts) holds the stable ones to floors. docs/conformance.md
 * ("Structures the reference lacks") says what each share means.
 */
import { mean, median } from './metrics.js';
import type { Row, Structures } from './score.js';

/** A share per article; undefined where the article has none of the whole (no tables, no fields). */
export interface StructureShares {
  /** Tables with at least one cell carrying links, of the tables. */
  tablesWithCellLinks?: number;
  /** References with metadata naming a work that carry a `title`, of those references. */
  referencesWithTitle?: number;
  /** Citations whose identifier is a reference of the article, of the citations. */
  citationsResolving?: number;
  /** Citations found, of the in-text markers in the input (markers in dropped noise lower it). */
  markersCited?: number;
  /** Infobox fields with no value, list, or image, of the fields. */
  emptyInfoboxFields?: number;
}
export type StructureShare = keyof StructureShares;

const of = (part: number, whole: number): number | undefined => (whole === 0 ? undefined : part / whole);

export function sharesOf(s: Structures): StructureShares {
  const out: StructureShares = {};
  const put = (key: StructureShare, v: number | undefined): void => {
    if (v !== undefined) out[key] = v;
  };
  put('tablesWithCellLinks', of(s.tablesWithCellLinks, s.tables));
  put('referencesWithTitle', of(s.citableWithTitle, s.citableReferences));
  put('citationsResolving', of(s.citationsResolving, s.citations));
  // More citations than markers happens (a marker of a template that renders two); capped at 1.
  put('markersCited', s.markersInInput === 0 ? undefined : Math.min(1, s.citations / s.markersInInput));
  put('emptyInfoboxFields', of(s.emptyInfoboxFields, s.infoboxFields));
  return out;
}

/** Which end of a share is bad: most are better high; empty fields are better low. */
export const SHARES: readonly { key: StructureShare; label: string; better: 'high' | 'low' }[] = [
  { key: 'tablesWithCellLinks', label: 'tables with cell links', better: 'high' },
  { key: 'referencesWithTitle', label: 'references with a title', better: 'high' },
  { key: 'citationsResolving', label: 'citations resolving', better: 'high' },
  { key: 'markersCited', label: 'markers cited', better: 'high' },
  { key: 'emptyInfoboxFields', label: 'empty infobox fields', better: 'low' },
];

export interface ShareStat {
  mean: number;
  median: number;
  /** The worst article's value (lowest, or highest for a 'low' share) and its name. */
  worst: number;
  worstArticle: string;
  n: number;
}

export function shareStat(rows: readonly Row[], key: StructureShare): ShareStat {
  const better = SHARES.find((s) => s.key === key)!.better;
  const scored = rows.flatMap((r) => {
    const v = sharesOf(r.structures)[key];
    return v === undefined ? [] : [{ name: r.name, v }];
  });
  let worst = scored[0];
  for (const s of scored) if (better === 'high' ? s.v < worst!.v : s.v > worst!.v) worst = s;
  const values = scored.map((s) => s.v);
  return { mean: mean(values), median: median(values), worst: worst?.v ?? Number.NaN, worstArticle: worst?.name ?? '-', n: values.length };
}
