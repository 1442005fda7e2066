/**
 * `npm run conformance:wikitext`: the wikitext door on ../shared/corpus/wikitext (78 real articles
 * in 33 languages), measured for what must never reach the output — leftover markup and
 * entities, namespace-prefixed text, image options as text, missing or wrong infoboxes,
 * references without text, boilerplate sections kept, content sections lost. Then the wikitext
 * door against the HTML door on the envelopes that carry both (scripts/conformance/wikitext.ts).
 * docs/conformance.md ("Wikitext corpus") defines every column.
 *
 *   --json [FILE]   the per-article figures and the summaries as JSON, to FILE (for diffs) or stdout
 *   --only NAME     one article (file name without .wikitext), with its examples
 *   --examples      print each article's examples under its row
 */
import { writeFileSync } from 'node:fs';
import { corpusDir } from './conformance/corpus.js';
import { printWikitextTable, wikitextConformance, wikitextSummary } from './conformance/wikitext.js';
import type { Count, WikitextCorpusRow, WikitextCorpusSummary } from './conformance/wikitext-corpus.js';
import { COUNTS, COUNT_LABELS, byLanguage, summarize, wikitextCorpusDir, wikitextCorpusRows } from './conformance/wikitext-corpus.js';
import { MARKUP_KINDS } from './conformance/wikitext-checks.js';

/** Short column heads, in COUNTS order. */
const HEADS: Record<Count, string> = {
  markup: 'markup',
  namespacePrefixed: 'ns:',
  imageOptions: 'imgopt',
  uncaretedUnits: 'km2',
  infoboxMissing: 'ibox-',
  hiddenMetadataInfoboxes: 'hidden',
  presentationalFields: 'present',
  emptyFields: 'empty-f',
  emptyReferences: 'empty-r',
  boilerplateKept: 'bp-kept',
  sectionsLost: 'lost',
};

const cell = (v: string | number, w: number): string => String(v).padStart(w);
const width = (k: Count): number => Math.max(HEADS[k].length, 5);

function header(first: string, firstWidth: number): string {
  return `${first.padEnd(firstWidth)} ${'strings'.padStart(7)} ${COUNTS.map((k) => cell(HEADS[k], width(k))).join(' ')}`;
}

function printRows(rows: readonly WikitextCorpusRow[], examples: boolean): void {
  console.log('wikitext corpus, per article (counts of strings or items that should be 0; docs/conformance.md)');
  console.log(header('article', 44));
  for (const r of rows) {
    console.log(`${r.name.slice(0, 43).padEnd(44)} ${cell(r.strings, 7)} ${COUNTS.map((k) => cell(r.counts[k], width(k))).join(' ')}`);
    if (!examples) continue;
    for (const k of COUNTS) for (const e of r.examples[k] ?? []) console.log(`    ${HEADS[k]}: ${e.replace(/\s+/g, ' ')}`);
  }
}

function printSummary(label: string, s: WikitextCorpusSummary): string {
  return `${label.padEnd(14)} ${cell(s.strings, 7)} ${COUNTS.map((k) => cell(`${s.counts[k].total}/${s.counts[k].articles}`, width(k))).join(' ')}`;
}

function printLanguages(rows: readonly WikitextCorpusRow[]): void {
  console.log('per language (total/articles hit)');
  console.log(header('language', 14));
  for (const [lang, s] of byLanguage(rows)) console.log(printSummary(`${lang} (${s.articles})`, s));
  console.log(printSummary(`all (${rows.length})`, summarize(rows)));
}

function printTotals(s: WikitextCorpusSummary): void {
  console.log('');
  for (const k of COUNTS) console.log(`${COUNT_LABELS[k].padEnd(30)} ${cell(s.counts[k].total, 6)} in ${cell(s.counts[k].articles, 2)} of ${s.articles} articles`);
  console.log(`${'infobox present where expected'.padEnd(30)} ${cell(s.infoboxes.present, 6)} of ${s.infoboxes.expected}`);
  console.log(`markup by kind (strings; of ${s.strings}): ${MARKUP_KINDS.map((k) => `${k} ${s.markupKinds[k]}`).join(', ')}`);
}

function main(): void {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 && args[jsonAt + 1] !== undefined && !args[jsonAt + 1]!.startsWith('--') ? args[jsonAt + 1] : undefined;
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  const folder = wikitextCorpusDir();
  if (folder === undefined) {
    console.log('conformance:wikitext: ../shared/corpus/wikitext not found (or $WIKISTRUCT_CORPUS); nothing to measure');
    return;
  }
  const rows = wikitextCorpusRows(folder, only);
  const summary = summarize(rows);
  const envelopes = only === undefined ? wikitextConformance(corpusDir()!) : [];
  if (jsonAt >= 0) {
    const json = JSON.stringify(
      { summary, languages: Object.fromEntries(byLanguage(rows)), rows, envelopes: { summary: wikitextSummary(envelopes), rows: envelopes } },
      null,
      1,
    );
    if (jsonFile === undefined) {
      console.log(json);
      return;
    }
    writeFileSync(jsonFile, `${json}\n`);
    console.log(`wrote ${jsonFile}`);
  }
  printRows(rows, only !== undefined || args.includes('--examples'));
  console.log('');
  printLanguages(rows);
  printTotals(summary);
  if (envelopes.length > 0) {
    console.log('');
    printWikitextTable(envelopes);
  }
}

main();
