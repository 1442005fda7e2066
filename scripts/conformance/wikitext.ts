/**
 * The wikitext path against the HTML path, on the corpus envelopes (which carry both the Parsoid
 * HTML and the wikitext of one revision). Per article:
 *
 * - headings: share of the HTML path's section headings (normalized: lower case, single spaces,
 *   each matched once) that the wikitext path also produces.
 * - infobox fields: share of the HTML path's infobox fields that have a matching wikitext field.
 *   HTML fields carry rendered labels ("Born"), wikitext fields parameter names ("birth_date"),
 *   so a field matches when (a) the label equals the parameter name read as words
 *   ("alma_mater" → "alma mater"), or (b) the values agree (valueAgreement: token F1 ≥ 0.5, or
 *   the wikitext value is contained in the HTML value). Each wikitext field is used once. Fields a template fetches from Wikidata exist only
 *   in the HTML, which bounds what the wikitext path can reach (e.g. frwiki {{Infobox Biographie2}}).
 *
 * - for information: token F1 of the abstracts and of all paragraph and list item text (as in the
 *   reference comparison), the share of the HTML path's reference identifiers (`cite_note-…`)
 *   reproduced, and whether the descriptions are equal.
 *
 * Run alone with `npx tsx scripts/conformance/wikitext.ts [--json]`; `npm run conformance` prints
 * it as its second table.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parse, parseRecord, wikitextRecordOf } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';
import { corpusCases, corpusDir } from './corpus.js';
import { mean, median, recall, tokenF1, tokens } from './metrics.js';

export interface WikitextRow {
  name: string;
  headings?: number;
  abstractF1?: number;
  bodyF1?: number;
  sameDescription: boolean;
  referenceIds?: number;
  infoboxFields?: number;
  htmlHeadings: number;
  wikitextHeadings: number;
  htmlFields: number;
  wikitextFields: number;
  tables: [number, number];
  references: [number, number];
  citations: [number, number];
  missingHeadings: string[];
}

/** A heading or label as compared: lower case, runs of spaces and `_` as one space. */
export const norm = (s: string): string => s.toLowerCase().replace(/[\s_]+/g, ' ').trim();

/** Names of all sections below the lead, normalized (`norm`), in document order. */
export function headingsOf(parts: readonly Part[] | undefined, out: string[], top = true): string[] {
  for (const p of parts ?? []) {
    if (p.type !== 'section') continue;
    if (!(top && p.name === 'abstract') && p.name !== undefined) out.push(norm(p.name));
    headingsOf(p.has_parts, out, false);
  }
  return out;
}

interface Field {
  label: string;
  value: string[];
}

function fieldsOf(parts: readonly Part[] | undefined, out: Field[]): Field[] {
  for (const p of parts ?? []) {
    if (p.type === 'field' && p.name !== undefined) out.push({ label: norm(p.name), value: tokens(p.value ?? '') });
    else fieldsOf(p.has_parts, out);
  }
  return out;
}

/**
 * How well a wikitext value stands for an HTML value: their token F1 when it is at least 0.5, or
 * else 1 when the wikitext value is part of the HTML value (≥ 80% of its tokens found there,
 * covering ≥ 30% of it): one rendered row often joins several parameters, e.g. "Born" shows
 * birth_date and birth_place. 0 when neither holds.
 */
function valueAgreement(wikitext: readonly string[], html: readonly string[]): number {
  const f1 = tokenF1(wikitext, html);
  if (f1 >= 0.5) return f1;
  if (wikitext.length === 0) return 0;
  const found = recall(html, wikitext);
  return found >= 0.8 && (found * wikitext.length) / html.length >= 0.3 ? 0.5 : 0;
}

/** See the header: label match first, else the best value match ≥ 0.5; each wikitext field once. */
export function infoboxAgreement(html: readonly Part[], wikitext: readonly Part[]): number | undefined {
  const theirs = fieldsOf(html, []);
  if (theirs.length === 0) return undefined;
  const ours = fieldsOf(wikitext, []);
  const used = new Set<number>();
  let found = 0;
  for (const f of theirs) {
    let pick = ours.findIndex((o, i) => !used.has(i) && o.label === f.label);
    if (pick < 0) {
      let best = 0;
      ours.forEach((o, i) => {
        if (used.has(i)) return;
        const score = valueAgreement(o.value, f.value);
        if (score > best) {
          best = score;
          pick = i;
        }
      });
    }
    if (pick >= 0) {
      used.add(pick);
      found++;
    }
  }
  return found / theirs.length;
}

/** Text of paragraphs and list items, as in the reference comparison's body measure. */
function bodyText(parts: readonly Part[] | undefined, out: string[]): string[] {
  for (const p of parts ?? []) {
    if ((p.type === 'paragraph' || p.type === 'list_item') && p.value !== undefined) out.push(p.value);
    bodyText(p.has_parts, out);
  }
  return out;
}

function countCitations(parts: readonly Part[] | undefined): number {
  let n = 0;
  for (const p of parts ?? []) n += (p.citations?.length ?? 0) + countCitations(p.has_parts);
  return n;
}

export function compare(name: string, html: Article, wikitext: Article): WikitextRow {
  const theirs = headingsOf(html.sections, []);
  const ours = headingsOf(wikitext.sections, []);
  const have = new Set(ours);
  const row: WikitextRow = {
    name,
    htmlHeadings: theirs.length,
    wikitextHeadings: ours.length,
    htmlFields: fieldsOf(html.infoboxes, []).length,
    wikitextFields: fieldsOf(wikitext.infoboxes, []).length,
    tables: [html.tables.length, wikitext.tables.length],
    references: [html.references.length, wikitext.references.length],
    citations: [countCitations(html.sections) + countCitations(html.infoboxes), countCitations(wikitext.sections) + countCitations(wikitext.infoboxes)],
    missingHeadings: theirs.filter((h) => !have.has(h)),
    sameDescription: html.description === wikitext.description,
  };
  if (html.references.length > 0) {
    const ids = new Set(wikitext.references.map((r) => r.identifier));
    row.referenceIds = html.references.filter((r) => ids.has(r.identifier)).length / html.references.length;
  }
  if ((html.abstract ?? '').length > 0) row.abstractF1 = tokenF1(tokens(wikitext.abstract ?? ''), tokens(html.abstract ?? ''));
  if (theirs.length > 0) row.headings = recall(ours, theirs);
  const htmlBody = tokens(bodyText(html.sections, []).join(' '));
  if (htmlBody.length > 0) row.bodyF1 = tokenF1(tokens(bodyText(wikitext.sections, []).join(' ')), htmlBody);
  const ib = infoboxAgreement(html.infoboxes, wikitext.infoboxes);
  if (ib !== undefined) row.infoboxFields = ib;
  return row;
}

export function wikitextConformance(dir: string): WikitextRow[] {
  const rows: WikitextRow[] = [];
  for (const c of corpusCases(dir)) {
    if (c.kind !== 'envelope') continue;
    const envelope = JSON.parse(readFileSync(c.path, 'utf8')) as Record<string, unknown>;
    // The envelope's wikitext with the page's meta only: what the wikitext door alone makes of it.
    const record = wikitextRecordOf(envelope);
    if (record === undefined) continue;
    rows.push(compare(c.name, parse(envelope), parseRecord(record)));
  }
  return rows;
}

export function wikitextSummary(rows: readonly WikitextRow[]) {
  const pick = (k: 'headings' | 'infoboxFields' | 'bodyF1' | 'abstractF1' | 'referenceIds'): number[] => rows.map((r) => r[k]).filter((v): v is number => v !== undefined);
  return {
    articles: rows.length,
    headings: { mean: mean(pick('headings')), median: median(pick('headings')), n: pick('headings').length },
    infoboxFields: { mean: mean(pick('infoboxFields')), median: median(pick('infoboxFields')), n: pick('infoboxFields').length },
    bodyF1: { mean: mean(pick('bodyF1')), median: median(pick('bodyF1')), n: pick('bodyF1').length },
    abstractF1: { mean: mean(pick('abstractF1')), median: median(pick('abstractF1')), n: pick('abstractF1').length },
    referenceIds: { mean: mean(pick('referenceIds')), median: median(pick('referenceIds')), n: pick('referenceIds').length },
    sameDescription: rows.filter((r) => r.sameDescription).length,
  };
}

export function printWikitextTable(rows: readonly WikitextRow[], verbose = false): void {
  const f = (v: number | undefined): string => (v === undefined ? '    -' : v.toFixed(3));
  const pair = (p: [number, number]): string => `${p[0]}/${p[1]}`.padStart(9);
  console.log('wikitext path vs HTML path (corpus envelopes; columns: html/wikitext)');
  console.log(`${'article'.padEnd(40)} headings  infobox  abstract body F1  ref ids  ${'tables'.padStart(9)} ${'refs'.padStart(9)} ${'cites'.padStart(9)}`);
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 39).padEnd(40)} ${f(r.headings)}     ${f(r.infoboxFields)}    ${f(r.abstractF1)}    ${f(r.bodyF1)}  ${f(r.referenceIds)}  ${pair(r.tables)} ${pair(r.references)} ${pair(r.citations)}`,
    );
    if (verbose && r.missingHeadings.length > 0) console.log(`  missing headings: ${r.missingHeadings.join(' | ')}`);
  }
  const s = wikitextSummary(rows);
  console.log('');
  console.log(`wikitext section headings   mean ${s.headings.mean.toFixed(3)}  median ${s.headings.median.toFixed(3)}  over ${s.headings.n} articles`);
  console.log(`wikitext abstract token F1  mean ${s.abstractF1.mean.toFixed(3)}  median ${s.abstractF1.median.toFixed(3)}  over ${s.abstractF1.n} articles`);
  console.log(`wikitext section body F1    mean ${s.bodyF1.mean.toFixed(3)}  median ${s.bodyF1.median.toFixed(3)}  over ${s.bodyF1.n} articles`);
  console.log(`wikitext infobox fields     mean ${s.infoboxFields.mean.toFixed(3)}  median ${s.infoboxFields.median.toFixed(3)}  over ${s.infoboxFields.n} articles`);
  console.log(`reference identifiers       mean ${s.referenceIds.mean.toFixed(3)}  median ${s.referenceIds.median.toFixed(3)}  over ${s.referenceIds.n} articles (share of the HTML path's cite_note ids reproduced)`);
  console.log(`same description            ${s.sameDescription} of ${s.articles} articles`);
}

function main(): void {
  const dir = corpusDir();
  if (dir === undefined) {
    console.log('wikitext conformance: corpus not found (../shared/corpus or $WIKISTRUCT_CORPUS); nothing to compare');
    return;
  }
  const rows = wikitextConformance(dir);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ summary: wikitextSummary(rows), rows }, null, 2));
  else printWikitextTable(rows, process.argv.includes('--verbose'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
