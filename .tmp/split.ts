import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import wtf from 'wtf_wikipedia';
import { corpusDir } from '/work/main/scripts/conformance/corpus.js';
import { corpusSiteinfo, wikitextCases, wikitextCorpusDir } from '/work/main/scripts/conformance/wikitext-corpus.js';
import { parseWikitext, wikitextRecordOf } from '/work/main/src/index.js';
import { parseTree } from '/work/main/src/engine/wikitext/tree.js';
import { profileForPage } from '/work/main/src/engine/wiki/profile.js';
const set = process.argv[2] ?? 'envelopes';
const inputs: { text: string; meta: any; options: any }[] = [];
if (set === 'envelopes') {
  const folder = corpusDir()!;
  for (const file of readdirSync(join(folder, 'articles')).sort()) {
    if (!file.endsWith('.json')) continue;
    const r = wikitextRecordOf(JSON.parse(readFileSync(join(folder, 'articles', file), 'utf8')));
    if (r) inputs.push({ text: r.wikitext, meta: r.meta, options: {} });
  }
} else {
  const folder = wikitextCorpusDir()!;
  for (const c of wikitextCases(folder)) { const info = corpusSiteinfo(folder, c.project); const site = info?.api ?? info?.dump; inputs.push({ text: readFileSync(c.path, 'utf8'), meta: { name: c.title, project: c.project, language: c.language }, options: site ? { site } : {} }); }
}
const profiles = inputs.map((i) => profileForPage(i.options.site, i.meta.project, i.meta.language));
const cpu = (f: () => void): number => { const t = process.cpuUsage(); f(); const u = process.cpuUsage(t); return (u.user + u.system) / 1000; };
const res: Record<string, number[]> = { tree: [], article: [], wtf: [] };
for (let r = 0; r < 8; r++) {
  res.tree!.push(cpu(() => inputs.forEach((i, k) => parseTree(i.text, profiles[k]))));
  res.article!.push(cpu(() => inputs.forEach((i) => parseWikitext(i.text, i.meta, i.options))));
  res.wtf!.push(cpu(() => inputs.forEach((i) => wtf(i.text).json())));
}
const med = (a: number[]) => [...a].slice(2).sort((x, y) => x - y)[Math.floor((a.length - 2) / 2)]!;
console.log(set, Object.entries(res).map(([k, v]) => `${k} ${med(v).toFixed(0)} ms`).join(', '), `tree/wtf ${(med(res.tree!) / med(res.wtf!)).toFixed(2)} article/wtf ${(med(res.article!) / med(res.wtf!)).toFixed(2)}`);
