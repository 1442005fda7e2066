/**
 * The per-article measures of `npm run conformance` and of the CI gate
 * (test/corpus/conformance.test.ts): agreement with the production parser's reference output,
 * and counts of the structures the reference does not have, which are checked by hand.
 * docs/conformance.md says what each number means.
 */
import { readFileSync } from 'node:fs';
import { parse } from '../../src/index.js';
import type { Article, Part, TableCell } from '../../src/index.js';
import type { CorpusCase } from './corpus.js';
import { loadInput } from './corpus.js';
import { mean, median, recall, tokenF1, tokens } from './metrics.js';

interface RefPart {
  name?: string | null;
  type?: string;
  value?: string;
  values?: string[];
  has_parts?: RefPart[];
}
interface ReferenceOutput {
  abstract?: string;
  sections?: RefPart[];
  infoboxes?: RefPart[];
}

/** Structures the reference output lacks, counted for a hand check (see docs/conformance.md). */
export interface Structures {
  language: string;
  tables: number;
  /** Tables with at least one cell carrying links. */
  tablesWithCellLinks: number;
  references: number;
  referencesWithMetadata: number;
  /** References with metadata that name a work (type other than "short"), and those of them with a title. */
  citableReferences: number;
  citableWithTitle: number;
  /** In-text reference markers in the input HTML, citations in the output, and those resolving to a reference. */
  markersInInput: number;
  citations: number;
  citationsResolving: number;
  infoboxFields: number;
  emptyInfoboxFields: number;
}

export interface Row {
  name: string;
  kind: string;
  abstractF1?: number;
  headings?: number;
  bodyF1?: number;
  infoboxFields?: number;
  hasAbstract: boolean;
  hasSections: boolean;
  missingHeadings?: string[];
  structures: Structures;
}

const normHeading = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

function headingsOf(parts: readonly (Part | RefPart)[] | undefined, out: string[], top = true): string[] {
  for (const p of parts ?? []) {
    if (p.type !== 'section') continue;
    const isLead = top && (p.name === 'Abstract' || p.name === 'abstract' || p.name === null || p.name === undefined);
    if (!isLead && typeof p.name === 'string') out.push(normHeading(p.name));
    headingsOf(p.has_parts as (Part | RefPart)[] | undefined, out, false);
  }
  return out;
}

/** Text of paragraphs and list items: what the reference's sections contain. */
function bodyText(parts: readonly (Part | RefPart)[] | undefined, out: string[]): string[] {
  for (const p of parts ?? []) {
    if ((p.type === 'paragraph' || p.type === 'list_item') && typeof p.value === 'string') out.push(p.value);
    if (p.type !== 'image') bodyText(p.has_parts as (Part | RefPart)[] | undefined, out);
  }
  return out;
}

interface Field {
  label: string;
  value: string[];
}

/** Labelled fields of infoboxes: reference `field` and `list` parts, our `field` parts. */
function fieldsOf(parts: readonly (Part | RefPart)[] | undefined, out: Field[]): Field[] {
  for (const p of parts ?? []) {
    if ((p.type === 'field' || p.type === 'list') && typeof p.name === 'string' && p.name.length > 0) {
      // Only reference parts have `values` (list items); ours are has_parts.
      const listValues = (('values' in p ? p.values : undefined) ?? []).map((v) => v.replace(/^\s*-\s*/, '')).join(' ');
      out.push({ label: normHeading(p.name), value: tokens(`${p.value ?? ''} ${listValues}`) });
    } else fieldsOf(p.has_parts as (Part | RefPart)[] | undefined, out);
  }
  return out;
}

/**
 * Share of reference infobox fields we produce: same label, and a value whose token F1 with the
 * reference value is at least 0.8 (the reference's values carry stray spaces and dropped text).
 */
function infoboxScore(ours: readonly Part[], ref: readonly RefPart[]): number | undefined {
  const refFields = fieldsOf(ref, []);
  if (refFields.length === 0) return undefined;
  const byLabel = new Map<string, Field[]>();
  for (const f of fieldsOf(ours, [])) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), f]);
  let found = 0;
  for (const f of refFields) {
    const candidates = byLabel.get(f.label) ?? [];
    if (candidates.some((c) => tokenF1(c.value, f.value) >= 0.8)) found++;
  }
  return found / refFields.length;
}

function* partsIn(parts: readonly Part[] | undefined): Generator<Part> {
  for (const p of parts ?? []) {
    yield p;
    yield* partsIn(p.has_parts);
  }
}

/**
 * In-text markers as the engine recognises them (inline.ts isCitationMarker): Parsoid's
 * `sup[typeof~="mw:Extension/ref"]`, rendered pages' `sup.reference`. Counted on the raw HTML so
 * the count does not depend on the engine under test.
 */
const MARKER = /<sup\b[^>]*?(?:\btypeof="[^"]*\bmw:Extension\/ref\b|\bclass="(?:[^"]*\s)?reference(?:\s[^"]*)?")/g;

function htmlOf(input: string | Record<string, unknown>): string {
  if (typeof input === 'string') return input;
  const body = input.article_body as { html?: unknown } | undefined;
  return typeof body?.html === 'string' ? body.html : '';
}

function cellHasLinks(cell: TableCell): boolean {
  return (cell.links?.length ?? 0) > 0;
}

export function structuresOf(article: Article, html: string): Structures {
  const ids = new Set(article.references.map((r) => r.identifier));
  const parts = [...partsIn(article.sections), ...partsIn(article.infoboxes)];
  // Table cells carry the citations of the markers inside tables (one article has 223 of them).
  const cells = article.tables.flatMap((t) => [...t.headers, ...t.rows, ...(t.footers ?? [])].flat());
  const citations = [...parts.flatMap((p) => p.citations ?? []), ...cells.flatMap((c) => c.citations ?? [])];
  const fields = [...partsIn(article.infoboxes)].filter((p) => p.type === 'field');
  const withMetadata = article.references.filter((r) => Object.keys(r.metadata).length > 0);
  const citable = withMetadata.filter((r) => r.type !== 'short');
  return {
    language: article.in_language?.identifier ?? '?',
    tables: article.tables.length,
    tablesWithCellLinks: article.tables.filter((t) => [...t.headers, ...t.rows].some((row) => row.some(cellHasLinks))).length,
    references: article.references.length,
    referencesWithMetadata: withMetadata.length,
    citableReferences: citable.length,
    citableWithTitle: citable.filter((r) => (r.metadata.title ?? '').length > 0).length,
    markersInInput: html.match(MARKER)?.length ?? 0,
    citations: citations.length,
    citationsResolving: citations.filter((c) => ids.has(c.identifier)).length,
    infoboxFields: fields.length,
    emptyInfoboxFields: fields.filter((f) => (f.value ?? '').trim().length === 0 && (f.has_parts?.length ?? 0) === 0 && (f.images?.length ?? 0) === 0).length,
  };
}

export function score(c: CorpusCase): Row {
  const input = loadInput(c);
  const ours = parse(input);
  const ref = c.referencePath === undefined ? undefined : (JSON.parse(readFileSync(c.referencePath, 'utf8')) as ReferenceOutput);
  const row: Row = {
    name: c.name,
    kind: c.kind,
    hasAbstract: (ours.abstract ?? '').length > 0,
    hasSections: ours.sections.some((s) => (s.has_parts?.length ?? 0) > 0),
    structures: structuresOf(ours, htmlOf(input)),
  };
  if (ref === undefined) return row;
  if ((ref.abstract ?? '').length > 0) row.abstractF1 = tokenF1(tokens(ours.abstract ?? ''), tokens(ref.abstract ?? ''));
  const refHeadings = headingsOf(ref.sections, []);
  if (refHeadings.length > 0) {
    const ourHeadings = headingsOf(ours.sections, []);
    row.headings = recall(ourHeadings, refHeadings);
    const have = new Set(ourHeadings);
    row.missingHeadings = refHeadings.filter((h) => !have.has(h));
  }
  const ib = infoboxScore(ours.infoboxes, ref.infoboxes ?? []);
  if (ib !== undefined) row.infoboxFields = ib;
  const refBody = bodyText(ref.sections, []).join(' ');
  if (refBody.length > 0) row.bodyF1 = tokenF1(tokens(bodyText(ours.sections, []).join(' ')), tokens(refBody));
  return row;
}

export type Measure = 'abstractF1' | 'headings' | 'bodyF1' | 'infoboxFields';
export const MEASURES: readonly Measure[] = ['abstractF1', 'headings', 'bodyF1', 'infoboxFields'];

export interface Stat {
  mean: number;
  median: number;
  min: number;
  /** The article with the lowest value. */
  worst: string;
  n: number;
}

export function stat(rows: readonly Row[], measure: Measure): Stat {
  const scored = rows.filter((r) => r[measure] !== undefined);
  const values = scored.map((r) => r[measure]!);
  let worst = scored[0];
  for (const r of scored) if (r[measure]! < worst![measure]!) worst = r;
  return { mean: mean(values), median: median(values), min: Math.min(...values), worst: worst?.name ?? '-', n: values.length };
}

/** Structures summed over rows, overall and per language. */
export interface StructureTotals {
  all: Structures;
  byLanguage: Map<string, Structures>;
}

export function structureTotals(rows: readonly Row[]): StructureTotals {
  const zero = (language: string): Structures => ({
    language,
    tables: 0,
    tablesWithCellLinks: 0,
    references: 0,
    referencesWithMetadata: 0,
    citableReferences: 0,
    citableWithTitle: 0,
    markersInInput: 0,
    citations: 0,
    citationsResolving: 0,
    infoboxFields: 0,
    emptyInfoboxFields: 0,
  });
  const add = (into: Structures, s: Structures): void => {
    for (const k of Object.keys(s) as (keyof Structures)[]) if (k !== 'language') into[k] += s[k];
  };
  const all = zero('all');
  const byLanguage = new Map<string, Structures>();
  for (const r of rows) {
    add(all, r.structures);
    const lang = r.structures.language;
    if (!byLanguage.has(lang)) byLanguage.set(lang, zero(lang));
    add(byLanguage.get(lang)!, r.structures);
  }
  return { all, byLanguage };
}
