import { readFileSync } from 'node:fs';
import { parseWikitext } from '../dist/src/index.js';
import { parseTree } from '../dist/src/engine/wikitext/tree.js';
import { profileForPage } from '../dist/src/engine/wiki/profile.js';
const [set = 'envelopes', what = 'article', rounds = '10'] = process.argv.slice(2);
const inputs = JSON.parse(readFileSync(`/tmp/prof/${set}.json`, 'utf8'));
const profiles = inputs.map((i) => profileForPage(i.options.site, i.meta.project, i.meta.language));
for (let r = 0; r < Number(rounds); r++) {
  const t = process.cpuUsage();
  if (what === 'tree') inputs.forEach((i, k) => parseTree(i.text, profiles[k]));
  else inputs.forEach((i) => parseWikitext(i.text, i.meta, i.options));
  const u = process.cpuUsage(t);
  console.log(`round ${r}: ${((u.user + u.system) / 1000).toFixed(0)} ms`);
}
