import { readFileSync } from 'node:fs';
import wtf from 'wtf_wikipedia';
import { parseWikitext } from '../dist/src/index.js';
import { parseTree } from '../dist/src/engine/wikitext/tree.js';
import { profileForPage } from '../dist/src/engine/wiki/profile.js';
const [set = 'envelopes', rounds = '8'] = process.argv.slice(2);
const inputs = JSON.parse(readFileSync(`/tmp/prof/${set}.json`, 'utf8'));
const profiles = inputs.map((i) => profileForPage(i.options.site, i.meta.project, i.meta.language));
const cpu = (f) => { const t = process.cpuUsage(); f(); const u = process.cpuUsage(t); return (u.user + u.system) / 1000; };
const res = { tree: [], article: [], wtf: [] };
for (let r = 0; r < Number(rounds); r++) {
  res.tree.push(cpu(() => inputs.forEach((i, k) => parseTree(i.text, profiles[k]))));
  res.article.push(cpu(() => inputs.forEach((i) => parseWikitext(i.text, i.meta, i.options))));
  res.wtf.push(cpu(() => inputs.forEach((i) => wtf(i.text).json())));
}
const med = (a) => [...a].slice(2).sort((x, y) => x - y)[Math.floor((a.length - 2) / 2)];
console.log(set, Object.entries(res).map(([k, v]) => `${k} ${med(v).toFixed(0)} ms`).join(', '), `tree/wtf ${(med(res.tree) / med(res.wtf)).toFixed(2)} article/wtf ${(med(res.article) / med(res.wtf)).toFixed(2)}`);
