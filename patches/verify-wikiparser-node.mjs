#!/usr/bin/env node
/**
 * Checks the wikiparser-node patch against a pristine copy of the version it was made for
 * (needs the npm registry, so it is a manual check, not part of `npm test`):
 *
 *   node patches/verify-wikiparser-node.mjs [--runs 3000]
 *
 * 1. `npm pack` the pristine version into a temporary project and run patch-package there: the
 *    patch must apply cleanly to a fresh copy, not only to this repository's node_modules.
 * 2. Load the pristine and the freshly patched copies side by side and compare, with fast-check,
 *    on random wikitext (with and without `viewOnly`, included or not): the parsed tree (type,
 *    name and text of every node), `normalizeTitle` results, and a random script of edits
 *    (insertions, text changes, removals, link targets, listeners, enumerable keys), which is
 *    what the lazily created event emitters and skipped events could change.
 * 3. Parse every envelope's wikitext in the corpus (if found) with both and compare the trees.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import fc from 'fast-check';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3000' } } });
const runs = Number(values.runs);

const patch = readdirSync(join(ROOT, 'patches')).find((f) => /^wikiparser-node\+.+\.patch$/.test(f));
if (patch === undefined) throw new Error('no patches/wikiparser-node+<version>.patch');
const version = patch.slice('wikiparser-node+'.length, -'.patch'.length);

// 1. A fresh copy, patched the way `npm ci` patches it.
const tmp = mkdtempSync(join(tmpdir(), 'wikiparser-node-verify-'));
const pristine = join(tmp, 'pristine');
const fresh = join(tmp, 'fresh');
try {
  const tarball = execFileSync('npm', ['pack', `wikiparser-node@${version}`, '--pack-destination', tmp], { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop();
  for (const dir of [pristine, join(fresh, 'node_modules', 'wikiparser-node')]) {
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', join(tmp, tarball), '-C', dir, '--strip-components=1']);
  }
  writeFileSync(join(fresh, 'package.json'), JSON.stringify({ name: 'verify', private: true }));
  cpSync(join(ROOT, 'patches', patch), join(fresh, 'patches', patch));
  execFileSync(join(ROOT, 'node_modules', '.bin', 'patch-package'), { cwd: fresh, stdio: 'inherit' });
  console.log(`1. ${patch} applies cleanly to a fresh wikiparser-node@${version}`);

  // 2. Side by side. The copies' own dependencies (entities, @bhsd/common …) resolve from this
  // repository's node_modules.
  process.env.NODE_PATH = join(ROOT, 'node_modules');
  createRequire(import.meta.url)('node:module').Module._initPaths();
  const load = (dir) => createRequire(join(dir, 'package.json'))('./dist/index.js');
  const A = load(pristine);
  const B = load(join(fresh, 'node_modules', 'wikiparser-node'));
  const enwiki = JSON.parse(readFileSync(join(pristine, 'config', 'enwiki.json'), 'utf8'));
  A.warning = false; // both print the same warnings on some of the random wikitext
  B.warning = false;
  const configA = A.getConfig(structuredClone(enwiki));
  const configB = B.getConfig(structuredClone(enwiki));
  const shape = (n) => (n.type === 'text' ? n.data : [n.type, n.name, n.childNodes.map(shape)]);
  const attempt = (f) => {
    try {
      return JSON.stringify(f());
    } catch (e) {
      return `throws ${e.constructor.name}: ${e.message}`;
    }
  };
  const bits = ['[[', ']]', '{{', '}}', '{{{', '}}}', '|', '=', '==', '\n', '<ref>', '</ref>', '<ref name="a"/>', '<!--', '-->', '<br/>',
    '<noinclude>', '<onlyinclude>', 'a', 'Foo', ' ', '#', ':', 'File:', 'Category:', 'Template:', 'en:', '&amp;', '%20', "''", "'''",
    'http://x.y', '[http://x.y z]', '-{', '}-', '{|', '|}', '|-', '!', '*', '#REDIRECT ', '__TOC__', '\0', '\x7F', '_', '../', '/',
    // headings and marks next to line breaks (hunk 13), image parameters (hunk 18)
    '===', '\r', '\u2028', '{{!}}', 'subst:', 'thumb', '200px', 'link=', 'alt=', 'upright',
    // a caption the later stages read (hunk 6: tokens plain by their own isPlain)
    '[[File:A.png|thumb|cap http://x.y ISBN 978-0-00-000000-2 [http://x.y z]]]', '<pre>a</pre>'];
  const wikitext = fc.array(fc.constantFrom(...bits), { maxLength: 40 }).map((xs) => xs.join(''));
  const same = (f) => attempt(() => f(A, configA)) === attempt(() => f(B, configB));
  for (const viewOnly of [true, false]) {
    A.viewOnly = viewOnly;
    B.viewOnly = viewOnly;
    fc.assert(fc.property(wikitext, fc.boolean(), (t, include) => same((P, c) => shape(P.parse(t, include, undefined, c)))), { numRuns: runs });
    const titleOptions = fc.record({ temporary: fc.boolean(), decode: fc.boolean(), selfLink: fc.boolean(), page: fc.constantFrom(undefined, '', 'Foo', 'Foo/Bar') });
    fc.assert(
      fc.property(wikitext, fc.constantFrom(0, 6, 10, 14), fc.boolean(), titleOptions, (t, ns, include, opt) =>
        same((P, c) => {
          const x = P.normalizeTitle(t, ns, include, c, { ...opt });
          return [x.title, x.valid, x.fragment, x.ns, x.interwiki, x.main, x.encoded, x.page, Object.keys(x)];
        })),
      { numRuns: runs },
    );
  }
  const edits = fc.array(fc.tuple(fc.nat(50), fc.constantFrom('insert', 'setText', 'remove', 'target', 'keys', 'listen'), fc.constantFrom('x', '[[y]]', '{{z}}', '', 'File:Q')), { maxLength: 8 });
  A.viewOnly = false;
  B.viewOnly = false;
  fc.assert(
    fc.property(wikitext, edits, (t, script) =>
      same((P, c) => {
        const root = P.parse(t, false, undefined, c);
        const log = [];
        for (const [k, op, s] of script) {
          const all = root.querySelectorAll('*');
          const el = all[k % Math.max(all.length, 1)];
          if (el === undefined) continue;
          log.push(attempt(() => {
            if (op === 'insert') el.insertAt(s);
            else if (op === 'setText') el.setText(s);
            else if (op === 'remove') el.removeAt(0);
            else if (op === 'target') el.setTarget?.(s);
            else if (op === 'keys') return Object.keys(el);
            else el.addEventListener('text', (_, d) => log.push(`event ${d.type} ${d.oldText}`));
            return String(root);
          }));
        }
        return log;
      })),
    { numRuns: runs },
  );
  console.log(`2. pristine and patched agree on ${runs} × 5 random cases (trees, titles, edits)`);

  // 3. The corpus.
  const corpus = process.env.WIKISTRUCT_CORPUS ?? join(ROOT, '..', 'shared', 'corpus');
  const articles = join(corpus, 'articles');
  if (existsSync(articles)) {
    A.viewOnly = true;
    B.viewOnly = true;
    let n = 0;
    for (const file of readdirSync(articles).filter((f) => f.endsWith('.json'))) {
      const text = JSON.parse(readFileSync(join(articles, file), 'utf8')).article_body?.wikitext;
      if (typeof text !== 'string') continue;
      if (!same((P, c) => shape(P.parse(text, false, undefined, c)))) throw new Error(`the trees of ${file} differ`);
      n++;
    }
    console.log(`3. same trees for the ${n} corpus articles with wikitext`);
  } else console.log(`3. corpus not found at ${corpus}; skipped`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
