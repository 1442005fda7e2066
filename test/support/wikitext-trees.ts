/**
 * Compares our light wikitext tree (src/engine/wikitext/syntax) with wikiparser-node's, node by
 * node: the oracle of the syntax passes (test/wikitext/syntax/oracle.test.ts and
 * test/support/compare-wikitext-trees.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AstNodes as TheirNode } from 'wikiparser-node/dist/internal.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';
import { corpusSiteinfo, wikitextCases, wikitextCorpusDir } from '../../scripts/conformance/wikitext-corpus.js';
import { wikitextRecordOf } from '../../src/index.js';
import type { WikiSite } from '../../src/engine/wiki/profile.js';
import type { AstNodes as OurNode } from '../../src/engine/wikitext/syntax/token.js';

/** Properties some rules read, compared where either tree has them. */
const PROPERTIES = ['name', 'anon', 'module', 'closing', 'selfClosing', 'subtype', 'rowspan', 'colspan', 'level'] as const;

export interface TreeDifference {
  /** Types and child indexes from the root down to the node that differs. */
  path: string;
  what: string;
  ours: string;
  theirs: string;
}

function prop(n: object, key: string): unknown {
  try {
    const v = (n as Record<string, unknown>)[key];
    return typeof v === 'function' ? undefined : v;
  } catch {
    return undefined;
  }
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v.length > 120 ? `${v.slice(0, 120)}…` : v) : JSON.stringify(v) ?? 'undefined');

/** The differences between two trees, at most `limit`, depth first (a node's own before its children's). */
export function compareTrees(ours: OurNode, theirs: TheirNode, limit = 20): TreeDifference[] {
  const out: TreeDifference[] = [];
  const visit = (a: OurNode, b: TheirNode, path: string): void => {
    if (out.length >= limit) return;
    const here = `${path}/${b.type}`;
    if (a.type !== b.type) {
      out.push({ path: here, what: 'type', ours: a.type, theirs: b.type });
      return;
    }
    if (a.type === 'text') {
      const da = (a as { data: string }).data;
      const db = (b as { data: string }).data;
      if (da !== db) out.push({ path: here, what: 'data', ours: show(da), theirs: show(db) });
      return;
    }
    for (const key of PROPERTIES) {
      const va = prop(a, key);
      const vb = prop(b, key);
      if (JSON.stringify(va) !== JSON.stringify(vb)) out.push({ path: here, what: key, ours: show(va), theirs: show(vb) });
    }
    const la = prop(a, 'link') as { ns?: number; title?: string } | string | undefined;
    const lb = prop(b, 'link') as { ns?: number; title?: string } | string | undefined;
    const link = (l: typeof la): string => (l === undefined ? 'undefined' : typeof l === 'string' ? l : `${l.ns}:${l.title}`);
    if (link(la) !== link(lb)) out.push({ path: here, what: 'link', ours: link(la), theirs: link(lb) });
    const sa = String(a);
    const sb = String(b);
    if (sa !== sb) out.push({ path: here, what: 'toString', ours: show(sa), theirs: show(sb) });
    const ta = safe(() => a.text());
    const tb = safe(() => b.text());
    if (ta !== tb) out.push({ path: here, what: 'text()', ours: show(ta), theirs: show(tb) });
    if (a.childNodes.length !== b.childNodes.length) {
      out.push({
        path: here,
        what: 'children',
        ours: a.childNodes.map((c) => c.type).join(' '),
        theirs: b.childNodes.map((c) => c.type).join(' '),
      });
      return;
    }
    for (let i = 0; i < a.childNodes.length; i++) visit(a.childNodes[i]!, b.childNodes[i]!, `${here}[${i}]`);
  };
  visit(ours, theirs, '');
  return out;
}

function safe(f: () => string): string {
  try {
    return f();
  } catch (e) {
    return `<throws ${(e as Error).message}>`;
  }
}

/** One line per node, indented by depth: type, the properties of PROPERTIES it has, its wikitext. */
export function dumpTree(n: OurNode, indent = ''): string {
  if (n.type === 'text') return `${indent}text ${show((n as { data: string }).data)}\n`;
  const props = PROPERTIES.map((k) => [k, prop(n, k)] as const)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${show(v)}`)
    .join(' ');
  let out = `${indent}${n.type} ${props} «${String(n).slice(0, 50).replace(/\n/g, '\\n')}»\n`;
  for (const c of n.childNodes) out += dumpTree(c, `${indent}  `);
  return out;
}

/** A wikitext of the shared corpus, with what picks its wiki's configuration. */
export interface WikitextCorpusCase {
  name: string;
  text: string;
  site: WikiSite | undefined;
  project: string | undefined;
  language: string | undefined;
}

/** The corpus envelopes' wikitext and the wikitext corpus (with each wiki's siteinfo); none when the corpus is absent. */
export function wikitextCorpusCases(sets: { envelopes?: boolean; wikitext?: boolean } = {}): WikitextCorpusCase[] {
  const cases: WikitextCorpusCase[] = [];
  const corpus = sets.envelopes === false ? undefined : corpusDir();
  if (corpus !== undefined) {
    for (const file of readdirSync(join(corpus, 'articles')).sort()) {
      if (!file.endsWith('.json')) continue;
      const record = wikitextRecordOf(JSON.parse(readFileSync(join(corpus, 'articles', file), 'utf8')) as unknown);
      if (record !== undefined) cases.push({ name: file, text: record.wikitext, site: undefined, project: record.meta.project, language: record.meta.language });
    }
  }
  const folder = sets.wikitext === false ? undefined : wikitextCorpusDir();
  if (folder !== undefined) {
    for (const c of wikitextCases(folder)) {
      const info = corpusSiteinfo(folder, c.project);
      cases.push({ name: c.name, text: readFileSync(c.path, 'utf8'), site: info?.api ?? info?.dump, project: c.project, language: c.language });
    }
  }
  return cases;
}
