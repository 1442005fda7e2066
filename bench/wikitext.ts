/**
 * parseWikitext against wtf_wikipedia (the most used JS wikitext parser), in the same run, on two
 * sets reported separately (machines are shared; only same-run ratios mean much):
 * - `envelopes`: the corpus envelopes' `article_body.wikitext`, with the envelope's meta;
 * - `wikitext`: the 78 articles of ../shared/corpus/wikitext (33 languages), each with its wiki's
 *   API siteinfo (`siteinfo/<project>.api.xml`) as `options.site`, as a dump reader would pass it.
 *
 *   npm run build && npx tsx bench/wikitext.ts [--rounds 5] [--warmup 2] [--set envelopes|wikitext|both]
 *
 * It measures the built package (dist/, tsc's output: the code an installed wikistruct runs), as
 * wtf_wikipedia is measured as published. tsx's own transpilation of src/ keeps function names by
 * wrapping every function and closure it creates in a `__name` call (esbuild `keepNames`), a cost
 * the published code does not have: on 26 Nov 2026 the same code read from src/ under tsx gave
 * 1.18× wtf on the envelopes and 1.09× on the wikitext corpus, built 1.05× and 0.82× (same
 * machine, minutes apart). A dist/ older than src/ is refused (`npm run bench:wikitext` builds).
 *
 * Throughput: a full parse per article — `parseWikitext(text, meta)` (an Article) and
 * `wtf(text).json()` (wtf's whole document as JSON) — over warm-up rounds, then timed rounds
 * with the order of the two parsers alternating. Each round is timed twice: wall clock, and the
 * process's CPU time (user + system, GC threads included), which other processes on a shared
 * machine inflate far less than the wall clock; the CPU line is the one to compare across runs.
 * GC settings are the process's: `node --max-semi-space-size=32 --import tsx bench/wikitext.ts`.
 *
 * Features: per article, how many infoboxes, tables, references with metadata, citations (in-text
 * markers linked to a reference) and images each parser produced. wtf_wikipedia counts every
 * citation template of the page as a reference (bibliography entries outside <ref> included) and
 * links no in-text marker to a reference, so its citations column is 0 by construction.
 *
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import wtf from 'wtf_wikipedia';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { corpusSiteinfo, wikitextCases, wikitextCorpusDir } from '../scripts/conformance/wikitext-corpus.js';
import { staleSources } from '../test/support/dist-freshness.js';
import type { Article, Part, WikitextMeta, WikitextOptions } from '../src/index.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
if (!existsSync(join(ROOT, 'dist/src/index.js')) || staleSources(ROOT).length > 0) {
  console.error('bench/wikitext: dist/ is missing or older than src/: run `npm run build` first (`npm run bench:wikitext` does)');
  process.exit(1);
}
const { parseWikitext, wikitextRecordOf } = (await import(pathToFileURL(join(ROOT, 'dist/src/index.js')).href)) as typeof import('../src/index.js');

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' }, set: { type: 'string', default: 'both' } },
});
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);

const corpus = corpusDir();
if (corpus === undefined) {
  console.log('bench/wikitext: corpus not found ($WIKISTRUCT_CORPUS or ../shared/corpus); skipped');
  process.exit(0);
}

interface Input {
  name: string;
  text: string;
  meta: WikitextMeta;
  options: WikitextOptions;
}
function envelopeInputs(folder: string): Input[] {
  const inputs: Input[] = [];
  for (const file of readdirSync(join(folder, 'articles')).sort()) {
    if (!file.endsWith('.json')) continue;
    const envelope = JSON.parse(readFileSync(join(folder, 'articles', file), 'utf8')) as unknown;
    const record = wikitextRecordOf(envelope);
    if (record !== undefined) inputs.push({ name: file.replace(/\.json$/, ''), text: record.wikitext, meta: record.meta, options: {} });
  }
  return inputs;
}
function wikitextInputs(folder: string): Input[] {
  return wikitextCases(folder).map((c) => {
    const info = corpusSiteinfo(folder, c.project);
    const site = info?.api ?? info?.dump;
    return {
      name: c.name,
      text: readFileSync(c.path, 'utf8'),
      meta: { name: c.title, project: c.project, language: c.language },
      options: site === undefined ? {} : { site },
    };
  });
}
const sets: [string, Input[]][] = [];
if (values.set !== 'wikitext') sets.push(['envelopes (article_body.wikitext)', envelopeInputs(corpus)]);
const wikitextFolder = wikitextCorpusDir();
if (values.set !== 'envelopes' && wikitextFolder !== undefined) sets.push(['wikitext corpus (with API siteinfo)', wikitextInputs(wikitextFolder)]);

type Parser = (i: Input) => unknown;
const ours: Parser = (i) => parseWikitext(i.text, i.meta, i.options);
const theirs: Parser = (i) => wtf(i.text).json();

interface Time {
  wall: number;
  cpu: number;
}

// Features.
interface Features {
  infoboxes: number;
  tables: number;
  refsWithMetadata: number;
  citations: number;
  images: number;
}
function countParts(parts: readonly Part[] | undefined, f: (p: Part) => number): number {
  let n = 0;
  for (const p of parts ?? []) n += f(p) + countParts(p.has_parts, f);
  return n;
}
function ourFeatures(a: Article): Features {
  return {
    infoboxes: a.infoboxes.length,
    tables: a.tables.length,
    refsWithMetadata: a.references.filter((r) => Object.keys(r.metadata).length > 0).length,
    citations: countParts(a.sections, (p) => p.citations?.length ?? 0) + countParts(a.infoboxes, (p) => p.citations?.length ?? 0),
    images: countParts(a.sections, (p) => (p.type === 'image' ? 1 : 0)) + countParts(a.infoboxes, (p) => (p.type === 'image' ? 1 : 0)),
  };
}
function wtfFeatures(text: string): Features {
  const doc = wtf(text);
  return {
    infoboxes: doc.infoboxes().length,
    tables: doc.tables().length,
    // wtf keeps a reference's template name and type among its fields; metadata is anything else.
    refsWithMetadata: doc.references().filter((r) => Object.keys(r.json() as object).some((k) => k !== 'template' && k !== 'type')).length,
    // wtf does not link in-text markers to references.
    citations: 0,
    images: doc.images().length,
  };
}

/** Times and feature counts of one set of inputs. */
function benchSet(inputs: Input[]): void {
  const bytes = inputs.reduce((n, i) => n + Buffer.byteLength(i.text), 0);
  function round(parser: Parser): Time {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const i of inputs) parser(i);
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { wall, cpu: (c.user + c.system) / 1000 };
  }

  for (let r = 0; r < warmup; r++) {
    round(ours);
    round(theirs);
  }
  const times = { ours: [] as Time[], theirs: [] as Time[] };
  for (let r = 0; r < rounds; r++) {
    // Alternate which parser goes first, so that neither always runs on a warmer or cooler machine.
    if (r % 2 === 0) {
      times.ours.push(round(ours));
      times.theirs.push(round(theirs));
    } else {
      times.theirs.push(round(theirs));
      times.ours.push(round(ours));
    }
  }

  const median = (ts: Time[], k: keyof Time): number => ts.map((t) => t[k]).sort((a, b) => a - b)[ts.length >> 1]!;
  const rate = (ms: number): string => `${((inputs.length * 1000) / ms).toFixed(2).padStart(7)} articles/s  ${((bytes / 1e6) * (1000 / ms)).toFixed(2).padStart(5)} MB/s`;
  console.log(`${inputs.length} articles, ${(bytes / 1e6).toFixed(2)} MB of wikitext; ${warmup} warm-up + ${rounds} timed rounds, median round`);
  for (const k of ['wall', 'cpu'] as const) {
    const [ours, theirs] = [median(times.ours, k), median(times.theirs, k)];
    console.log(`${k === 'wall' ? 'wall clock' : 'CPU time (process)'}`);
    console.log(`  parseWikitext (built)           ${ours.toFixed(0).padStart(6)} ms  ${rate(ours)}`);
    console.log(`  wtf_wikipedia .json()            ${theirs.toFixed(0).padStart(6)} ms  ${rate(theirs)}`);
    console.log(`  parseWikitext time ÷ wtf time    ${(ours / theirs).toFixed(2)}×`);
  }


  const keys: (keyof Features)[] = ['infoboxes', 'tables', 'refsWithMetadata', 'citations', 'images'];
  const total = { ours: { infoboxes: 0, tables: 0, refsWithMetadata: 0, citations: 0, images: 0 }, theirs: { infoboxes: 0, tables: 0, refsWithMetadata: 0, citations: 0, images: 0 } };
  console.log('');
  console.log('features produced (ours / wtf_wikipedia)');
  console.log(`${'article'.padEnd(36)}${keys.map((k) => k.padStart(18)).join('')}`);
  for (const i of inputs) {
    const o = ourFeatures(parseWikitext(i.text, i.meta, i.options));
    const t = wtfFeatures(i.text);
    for (const k of keys) {
      total.ours[k] += o[k];
      total.theirs[k] += t[k];
    }
    console.log(`${i.name.slice(0, 35).padEnd(36)}${keys.map((k) => `${o[k]} / ${t[k]}`.padStart(18)).join('')}`);
  }
  console.log(`${'total'.padEnd(36)}${keys.map((k) => `${total.ours[k]} / ${total.theirs[k]}`.padStart(18)).join('')}`);
  const has = (f: Features, k: keyof Features): string => (f[k] > 0 ? 'yes' : 'no');
  console.log(`${'produced any'.padEnd(36)}${keys.map((k) => `${has(total.ours, k)} / ${has(total.theirs, k)}`.padStart(18)).join('')}`);
}

for (const [label, inputs] of sets) {
  console.log(`== ${label}`);
  benchSet(inputs);
  console.log('');
}
