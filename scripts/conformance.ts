/**
 * `npm run conformance`: compares wikistruct with the production parser's reference outputs in
 * ../shared/corpus/reference, per article and as means. See docs/conformance.md for what each
 * number means and for every deliberate difference.
 *
 *   --json       machine-readable output
 *   --only NAME  one article, with the differing headings listed
 */
import { readFileSync } from 'node:fs';
import { parse } from '../src/index.js';
import type { Article, Part } from '../src/index.js';
import { corpusCases, corpusDir, loadInput } from './conformance/corpus.js';
import { mean, median, recall, tokenF1, tokens } from './conformance/metrics.js';
import { printWikitextTable, wikitextConformance, wikitextSummary } from './conformance/wikitext.js';

interface RefPart {
  name?: string | null;
  type?: string;
  value?: string;
  values?: string[];
  has_parts?: RefPart[];
}
interface Reference {
  abstract?: string;
  sections?: RefPart[];
  infoboxes?: RefPart[];
}

interface Row {
  name: string;
  kind: string;
  abstractF1?: number;
  headings?: number;
  bodyF1?: number;
  infoboxFields?: number;
  tables: number;
  references: number;
  citations: number;
  referencesWithMetadata: number;
  hasAbstract: boolean;
  hasSections: boolean;
  missingHeadings?: string[];
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
      const listValues = (p.values ?? []).map((v) => v.replace(/^\s*-\s*/, '')).join(' ');
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
  const ourFields = fieldsOf(ours, []);
  const byLabel = new Map<string, Field[]>();
  for (const f of ourFields) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), f]);
  let found = 0;
  for (const f of refFields) {
    const candidates = byLabel.get(f.label) ?? [];
    if (candidates.some((c) => tokenF1(c.value, f.value) >= 0.8)) found++;
  }
  return found / refFields.length;
}

function countCitations(parts: readonly Part[] | undefined): number {
  let n = 0;
  for (const p of parts ?? []) n += (p.citations?.length ?? 0) + countCitations(p.has_parts);
  return n;
}

function score(name: string, kind: string, ours: Article, ref: Reference | undefined): Row {
  const row: Row = {
    name,
    kind,
    tables: ours.tables.length,
    references: ours.references.length,
    citations: countCitations(ours.sections) + countCitations(ours.infoboxes),
    referencesWithMetadata: ours.references.filter((r) => Object.keys(r.metadata).length > 0).length,
    hasAbstract: (ours.abstract ?? '').length > 0,
    hasSections: ours.sections.some((s) => (s.has_parts?.length ?? 0) > 0),
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

function main(): void {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  const dir = corpusDir();
  if (dir === undefined) {
    console.log('conformance: corpus not found (../shared/corpus or $WIKISTRUCT_CORPUS); nothing to compare');
    return;
  }
  const rows: Row[] = [];
  for (const c of corpusCases(dir)) {
    if (only !== undefined && c.name !== only) continue;
    const ours = parse(loadInput(c));
    const ref = c.referencePath === undefined ? undefined : (JSON.parse(readFileSync(c.referencePath, 'utf8')) as Reference);
    rows.push(score(c.name, c.kind, ours, ref));
  }
  const pick = (k: 'abstractF1' | 'headings' | 'bodyF1' | 'infoboxFields'): number[] =>
    rows.map((r) => r[k]).filter((v): v is number => v !== undefined);
  const summary = {
    articles: rows.length,
    abstractF1: { mean: mean(pick('abstractF1')), median: median(pick('abstractF1')), n: pick('abstractF1').length },
    headings: { mean: mean(pick('headings')), median: median(pick('headings')), n: pick('headings').length },
    bodyF1: { mean: mean(pick('bodyF1')), median: median(pick('bodyF1')), n: pick('bodyF1').length },
    infoboxFields: { mean: mean(pick('infoboxFields')), median: median(pick('infoboxFields')), n: pick('infoboxFields').length },
    withoutAbstract: rows.filter((r) => !r.hasAbstract).map((r) => r.name),
    withoutSections: rows.filter((r) => !r.hasSections).map((r) => r.name),
  };
  // Second table: the wikitext path against the HTML path (scripts/conformance/wikitext.ts).
  const wikitextRows = only === undefined ? wikitextConformance(dir) : [];
  if (json) {
    console.log(JSON.stringify({ summary, rows, wikitext: { summary: wikitextSummary(wikitextRows), rows: wikitextRows } }, null, 2));
    return;
  }
  const f = (v: number | undefined): string => (v === undefined ? '    -' : v.toFixed(3));
  console.log(`${'article'.padEnd(44)} kind     abstract headings body  infobox  tables  refs  w/meta  cites`);
  const n = (v: number, w: number): string => String(v).padStart(w);
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 43).padEnd(44)} ${r.kind.padEnd(8)} ${f(r.abstractF1)}    ${f(r.headings)}   ${f(r.bodyF1)}  ${f(r.infoboxFields)}  ${n(r.tables, 5)} ${n(r.references, 5)} ${n(r.referencesWithMetadata, 6)} ${n(r.citations, 6)}`,
    );
    if (only !== undefined && r.missingHeadings !== undefined && r.missingHeadings.length > 0) {
      console.log(`  missing headings: ${r.missingHeadings.join(' | ')}`);
    }
  }
  const line = (label: string, s: { mean: number; median: number; n: number }, target: number): string =>
    `${label.padEnd(22)} mean ${s.mean.toFixed(3)}  median ${s.median.toFixed(3)}  over ${s.n} articles  (target ≥ ${target}) ${s.mean >= target ? 'PASS' : 'FAIL'}`;
  console.log('');
  console.log(line('abstract token F1', summary.abstractF1, 0.95));
  console.log(line('section headings', summary.headings, 0.95));
  console.log(line('section body token F1', summary.bodyF1, 0.92));
  console.log(line('infobox fields', summary.infoboxFields, 0.85));
  console.log(`inputs without an abstract: ${summary.withoutAbstract.join(', ') || 'none'}`);
  console.log(`inputs without section content: ${summary.withoutSections.join(', ') || 'none'}`);
  if (wikitextRows.length > 0) {
    console.log('');
    printWikitextTable(wikitextRows);
  }
}

main();
