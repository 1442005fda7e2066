/**
 * Cost of the content service's upstream pieces, each compared in the same run with the least
 * any implementation must do:
 *
 *   npx tsx bench/upstream.ts [--rounds 5]
 *
 * 1. normalizeTitle vs `decodeURIComponent(t).replace(/_/g, ' ')` (no MediaWiki rules at all).
 * 2. WikiClient.fetchArticle against the fake wiki on loopback vs two bare `fetch` calls for the
 *    same two routes, read as text (no timeouts, retries, redirects handling or size cap).
 * Rounds alternate between each pair so that drift on a shared machine hits both alike; the
 * median round counts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '../scripts/conformance/corpus.js';
import { normalizeTitle } from '../src/service/content/title.js';
import { WikiClient } from '../src/service/content/upstream/wiki-client.js';
import type { FakePage } from '../test/support/fake-wiki.js';
import { FakeWiki, pageFromEnvelope } from '../test/support/fake-wiki.js';

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
const rounds = argValue('--rounds', 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function compare(label: string, unit: string, perRound: number, baseline: () => Promise<void>, ours: () => Promise<void>): Promise<void> {
  await baseline();
  await ours();
  const base: number[] = [];
  const mine: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    await baseline();
    base.push(performance.now() - t);
    t = performance.now();
    await ours();
    mine.push(performance.now() - t);
  }
  const b = (median(base) / perRound) * 1000;
  const o = (median(mine) / perRound) * 1000;
  console.log(`${label}: baseline ${b.toFixed(1)} µs/${unit}, ours ${o.toFixed(1)} µs/${unit}, ratio ${(o / b).toFixed(2)}×`);
}

// 1. Titles: a mix of the shapes the route receives.
const shapes = ['Albert_Einstein', 'albert einstein', 'Z%C3%BCrich', 'help:contents', 'User_talk:Example', 'AC%2FDC', '100%_pure', 'İstanbul', 'Rock_%26_roll'];
const titles = Array.from({ length: 20_000 }, (_, i) => `${shapes[i % shapes.length]!}_${i}`);
let sink = 0;
await compare(
  'normalizeTitle',
  'title',
  titles.length,
  async () => {
    for (const t of titles) {
      let decoded = t;
      try {
        decoded = decodeURIComponent(t); // throws on the lone '%' of "100%_pure", which MediaWiki allows
      } catch {}
      sink += decoded.replace(/_/g, ' ').length;
    }
  },
  async () => {
    for (const t of titles) sink += normalizeTitle(t, 'enwiki').length;
  },
);

// 2. Fetches: a real article when the corpus is there, else a synthetic 200 KB page.
const dir = corpusDir();
const file = dir === undefined ? undefined : join(dir, 'articles', 'enwiki__Albert_Einstein.json');
const page: FakePage =
  file !== undefined && existsSync(file)
    ? pageFromEnvelope(JSON.parse(readFileSync(file, 'utf8')))
    : { title: 'Synthetic', html: `<!DOCTYPE html><html><body>${'<p>text text text</p>'.repeat(10_000)}</body></html>` };
const wiki = await FakeWiki.start([page]);
const client = new WikiClient({ contact: 'bench', resolveOrigin: wiki.resolveOrigin });
const base = `${wiki.origin}/w/rest.php/v1/page/${encodeURIComponent(page.title.replace(/ /g, '_'))}`;
const fetches = 100;
console.log(`fetch: "${page.title}", ${(Buffer.byteLength(page.html) / 1e3).toFixed(0)} KB of HTML, ${fetches} sequential fetches per round`);
await compare(
  'fetchArticle',
  'fetch',
  fetches,
  async () => {
    for (let i = 0; i < fetches; i++) {
      const [m, h] = await Promise.all([fetch(base), fetch(`${base}/html`)]);
      sink += (await m.text()).length + (await h.text()).length;
    }
  },
  async () => {
    for (let i = 0; i < fetches; i++) sink += (await client.fetchArticle('enwiki', page.title)).html.length;
  },
);
await wiki.close();
console.log(`(checksum ${sink % 997})`);
