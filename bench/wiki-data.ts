/**
 * `npm run bench:wiki-data`: what the per-wiki data (grammar/generated/) costs a process — bytes
 * on disk, time to import, heap kept — in the layout the engine uses (each language's and wiki's
 * entry a JSON text, decoded on first use) against the same facts as plain JSON objects, and
 * against importing grammar/wikitext.json (the largest hand-written grammar file) as the baseline,
 * all in the same run. Each import runs in a fresh `node --expose-gc` process (a module is
 * imported once per process), `--rounds` times, alternating; medians are printed. Then the cost
 * of the first profile of a wiki (decoding English and its language) and of a cached one.
 *
 *   npx tsx bench/wiki-data.ts [--rounds 7]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTPUTS } from '../scripts/generate-wiki-data.js';
import { wikiProfile } from '../src/index.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const at = process.argv.indexOf('--rounds');
const rounds = at >= 0 ? Number(process.argv[at + 1]) : 7;

/** The alternative layout: every entry already an object (what decoding every entry would keep). */
function objectLayout(dir: string): string[] {
  const out: string[] = [];
  for (const [file, key] of [[OUTPUTS.languages, 'languages'], [OUTPUTS.wikis, 'wikis']] as const) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const entries = data[key] as Record<string, string>;
    data[key] = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, JSON.parse(v) as unknown]));
    const target = join(dir, `${key}-objects.json`);
    writeFileSync(target, JSON.stringify(data));
    out.push(target);
  }
  return out;
}

/** Import the files in a fresh process; returns [ms, heap bytes kept after GC]. */
function importCost(files: readonly string[]): [number, number] {
  const script = `
    globalThis.gc(); globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    for (const f of ${JSON.stringify(files)}) await import(f, { with: { type: 'json' } });
    const ms = performance.now() - t0;
    globalThis.gc(); globalThis.gc();
    console.log(JSON.stringify([ms, process.memoryUsage().heapUsed - before]));`;
  // A first import of a tiny JSON module loads the loader's own code, which every layout would pay.
  const warm = `await import(${JSON.stringify(join(ROOT, 'grammar', 'parsoid.json'))}, { with: { type: 'json' } });`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', warm + script], { encoding: 'utf8' });
  return JSON.parse(out) as [number, number];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const tmp = mkdtempSync(join(tmpdir(), 'wiki-data-'));
try {
  const layouts: Record<string, string[]> = {
    'baseline grammar/wikitext.json': [join(ROOT, 'grammar', 'wikitext.json')],
    'generated (entries as JSON text)': [OUTPUTS.languages, OUTPUTS.wikis],
    'same facts as objects': objectLayout(tmp),
  };
  const results: Record<string, { ms: number[]; heap: number[] }> = {};
  for (const name of Object.keys(layouts)) results[name] = { ms: [], heap: [] };
  for (let r = 0; r < rounds; r++) {
    const names = Object.keys(layouts);
    if (r % 2 === 1) names.reverse();
    for (const name of names) {
      const [ms, heap] = importCost(layouts[name]!);
      results[name]!.ms.push(ms);
      results[name]!.heap.push(heap);
    }
  }
  const base = results['baseline grammar/wikitext.json']!;
  console.log(`import cost, median of ${rounds} fresh processes each (machine load shifts ms; compare ratios)`);
  for (const [name, files] of Object.entries(layouts)) {
    const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
    const r = results[name]!;
    console.log(
      `${name.padEnd(34)} ${String(Math.round(bytes / 1024)).padStart(5)} KB on disk  ${median(r.ms).toFixed(1).padStart(6)} ms (${(median(r.ms) / median(base.ms)).toFixed(1)}× baseline)  heap ${(median(r.heap) / 1e6).toFixed(2)} MB (${(median(r.heap) / median(base.heap)).toFixed(1)}× baseline)`,
    );
  }
  let t0 = performance.now();
  wikiProfile({ project: 'dewiki' });
  const first = performance.now() - t0;
  t0 = performance.now();
  wikiProfile({ project: 'jawiki' });
  const second = performance.now() - t0;
  t0 = performance.now();
  for (let i = 0; i < 10_000; i++) wikiProfile({ project: 'dewiki' });
  const cached = (performance.now() - t0) / 10_000;
  console.log(`first profile (dewiki, decodes en + de) ${first.toFixed(2)} ms; another language (jawiki) ${second.toFixed(2)} ms; cached ${(cached * 1000).toFixed(2)} µs`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
