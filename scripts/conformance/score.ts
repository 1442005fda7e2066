/**
 * The per-article measures of `npm run conformance` and of the CI gate
 * (test/corpus/conformance.test.ts): agreement with the production parser's reference output,
 * and counts of the structures the reference does not have, which are checked by hand.
 * docs/conformance.md says what each number means.
 */
import { readFileSync } from 'node:fs';
import { parse } from '../../src/index.js';
import { boilerplateTitles } from '../../src/engine/grammar.js';
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
  /** The abstract token F1 with parentheses left in on both sides: how much deliberate difference 2 weighs. */
  abstractF1WithParentheses?: number;
  headings?: number;
  /** Headings as measured before issue 21: whole lowercased titles, boilerplate ones included. */
  headingsStrict?: number;
  bodyF1?: number;
  infoboxFields?: number;
  /** Infobox fields as measured before issue 21: top-level fields, labels and values as written, marker text and label repeats kept. */
  infoboxFieldsStrict?: number;
  hasAbstract: boolean;
  hasSections: boolean;
  missingHeadings?: string[];
  structures: Structures;
}

const normHeading = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A heading as compared: its tokens, so that spacing and punctuation do not count, as in every
 * other measure ("Rise as a superpower (1917 – 1945)" in the reference, "(1917–1945)" in ours).
 */
const headingTokens = (s: string): string => tokens(s).join(' ');

/**
 * Reference outputs the production parser got wrong, left out of the measures named here (and
 * only those), each with the reason (../shared/corpus/README.md names them). Never a way to pass a
 * floor: an article is listed here only for what its reference output says about the reference.
 */
export const BROKEN_REFERENCES: ReadonlyMap<string, { measures: readonly Measure[]; why: string }> = new Map([
  [
    'Sablon:Infokutija_filozof',
    {
      measures: ['abstractF1', 'headings', 'bodyF1', 'infoboxFields'],
      why: 'a template page (bswiki Template namespace): the production parser read its documentation box as the page, nesting "Korištenje" inside itself and finding no lead; nothing in that output is the page as a reader sees it',
    },
  ],
  [
    '1976_Democratic_Party_presidential_primaries',
    {
      measures: ['abstractF1'],
      why: 'the production abstract runs on past the lead into the whole "Background" section ("… New York City. Background 1972 election In 1972, Senator George McGovern …"): an abstract of the article body, not of its lead',
    },
  ],
]);

/** Whether the reference output of `name` counts for `measure` (BROKEN_REFERENCES). */
export function scored(name: string, measure: Measure): boolean {
  return BROKEN_REFERENCES.get(name)?.measures.includes(measure) !== true;
}

/**
 * Multi-word parentheses, as the production parser drops them from the abstract (deliberate
 * difference 2, docs/conformance.md): Wikimedia's page summary rule (mobileapps summarize.js) —
 * nested parentheses first, then every "(…)" with a space inside it and a space before it, and a
 * full-width "（…）" holding a space, "：" or "，". We keep them; the abstract is compared outside
 * them, on both sides, so that the measure says where the two agree on the summary's text.
 */
export function withoutMultiWordParentheses(text: string): string {
  let out = text;
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/(\([^()]*)(\([^()]+\))/g, '$1 ');
  }
  return out.replace(/([ \u00a0])\([^)]+ [^)]+\)/g, '$1').replace(/（[^）]+[ ：，][^）]+）/g, ' ');
}

/**
 * Section titles the engine drops as boilerplate for a language (grammar/sections.json, read
 * through the engine's grammar tables; deliberate difference 1): the reference keeps those
 * sections, so their headings are not expected of us.
 */
const boilerplateCache = new Map<string, ReadonlySet<string>>();
function boilerplateHeadings(language: string): ReadonlySet<string> {
  let set = boilerplateCache.get(language);
  if (set === undefined) boilerplateCache.set(language, (set = new Set([...boilerplateTitles(language)].map(headingTokens))));
  return set;
}

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

/**
 * The reference writes a marker's text into infobox values ("Country rock[1][2]",
 * "Persian[lower-alpha 2]"); ours are citations, never text (Part.value). Left out on both sides.
 */
const MARKER_TEXT = /\[[^[\]]{0,24}\d+\]/gu;

/**
 * Labelled fields of infoboxes: reference `field` and `list` parts, our `field` parts wherever they
 * are (a field's own fields — a row's columns, the rows of a table in its cell — are fields too).
 * A label is compared without spaces or punctuation: the reference glues words at element
 * boundaries ("FederalCouncil", "ISO3166 code"). A reference value that only repeats its label
 * ("Sultan: Sultan", "Signature: Signature") is the production parser's stand-in for a field
 * without text (a label over indented rows, an image-only field): it counts as empty.
 */
function fieldsOf(parts: readonly (Part | RefPart)[] | undefined, out: Field[]): Field[] {
  for (const p of parts ?? []) {
    if ((p.type === 'field' || p.type === 'list') && typeof p.name === 'string' && p.name.length > 0) {
      // Only reference parts have `values` (list items); ours are has_parts.
      const listValues = (('values' in p ? p.values : undefined) ?? []).map((v) => v.replace(/^\s*-\s*/, '')).join(' ');
      const label = tokens(p.name).join('');
      const value = tokens(`${p.value ?? ''} ${listValues}`.replace(MARKER_TEXT, ' '));
      out.push({ label, value: value.join('') === label ? [] : value });
    }
    fieldsOf(p.has_parts as (Part | RefPart)[] | undefined, out);
  }
  return out;
}

/** Values agree: token F1 of at least 0.8 (the reference drops text and adds stray spaces), or the same letters once spacing is ignored ("GeorgeLucas"). */
function sameValue(ours: readonly string[], reference: readonly string[]): boolean {
  return tokenF1(ours, reference) >= 0.8 || ours.join('') === reference.join('');
}

/**
 * Share of reference infobox fields we produce: same label, and a value that agrees (sameValue).
 */
function infoboxScore(ours: readonly Part[], ref: readonly RefPart[]): number | undefined {
  const refFields = fieldsOf(ref, []);
  if (refFields.length === 0) return undefined;
  const byLabel = new Map<string, Field[]>();
  for (const f of fieldsOf(ours, [])) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), f]);
  let found = 0;
  for (const f of refFields) {
    const candidates = byLabel.get(f.label) ?? [];
    if (candidates.some((c) => sameValue(c.value, f.value))) found++;
  }
  return found / refFields.length;
}

/**
 * The measure before issue 21, kept so that the report shows what the deliberate differences of
 * fieldsOf weigh: top-level fields only, labels lowercased but not unglued, values with the
 * reference's marker text and label repeats as they are.
 */
function strictFieldsOf(parts: readonly (Part | RefPart)[] | undefined, out: Field[]): Field[] {
  for (const p of parts ?? []) {
    if ((p.type === 'field' || p.type === 'list') && typeof p.name === 'string' && p.name.length > 0) {
      const listValues = (('values' in p ? p.values : undefined) ?? []).map((v) => v.replace(/^\s*-\s*/, '')).join(' ');
      out.push({ label: normHeading(p.name), value: tokens(`${p.value ?? ''} ${listValues}`) });
    } else strictFieldsOf(p.has_parts as (Part | RefPart)[] | undefined, out);
  }
  return out;
}

function strictInfoboxScore(ours: readonly Part[], ref: readonly RefPart[]): number | undefined {
  const refFields = strictFieldsOf(ref, []);
  if (refFields.length === 0) return undefined;
  const ourFields = strictFieldsOf(ours, []);
  const found = refFields.filter((f) => ourFields.some((c) => c.label === f.label && tokenF1(c.value, f.value) >= 0.8)).length;
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
  const name = c.name;
  if ((ref.abstract ?? '').length > 0 && scored(name, 'abstractF1')) {
    row.abstractF1 = tokenF1(tokens(withoutMultiWordParentheses(ours.abstract ?? '')), tokens(withoutMultiWordParentheses(ref.abstract ?? '')));
    row.abstractF1WithParentheses = tokenF1(tokens(ours.abstract ?? ''), tokens(ref.abstract ?? ''));
  }
  const boilerplate = boilerplateHeadings(row.structures.language);
  const refHeadings = headingsOf(ref.sections, []).map(headingTokens).filter((h) => !boilerplate.has(h));
  if (refHeadings.length > 0 && scored(name, 'headings')) {
    const ourHeadings = headingsOf(ours.sections, []).map(headingTokens);
    row.headings = recall(ourHeadings, refHeadings);
    const have = new Set(ourHeadings);
    row.missingHeadings = refHeadings.filter((h) => !have.has(h));
  }
  const refWholeHeadings = headingsOf(ref.sections, []);
  if (refWholeHeadings.length > 0 && scored(name, 'headings')) row.headingsStrict = recall(headingsOf(ours.sections, []), refWholeHeadings);
  const ib = infoboxScore(ours.infoboxes, ref.infoboxes ?? []);
  if (ib !== undefined && scored(name, 'infoboxFields')) row.infoboxFields = ib;
  const strict = strictInfoboxScore(ours.infoboxes, ref.infoboxes ?? []);
  if (strict !== undefined && scored(name, 'infoboxFields')) row.infoboxFieldsStrict = strict;
  const refBody = bodyText(ref.sections, []).join(' ');
  if (refBody.length > 0 && scored(name, 'bodyF1')) row.bodyF1 = tokenF1(tokens(bodyText(ours.sections, []).join(' ')), tokens(refBody));
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

export function stat(rows: readonly Row[], measure: Measure | 'abstractF1WithParentheses' | 'headingsStrict' | 'infoboxFieldsStrict'): Stat {
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
