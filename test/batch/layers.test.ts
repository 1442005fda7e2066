/**
 * The layers stay apart: the engine is pure (its own modules, the Article schema, the grammar
 * data and npm packages, no Node built-ins) and has one door, src/index.ts, that every other
 * folder goes through; the two adapters, the batch converter and the service, share code through
 * src/io and src/workers, never through each other; and no module of src imports itself again
 * through others (no import cycle). Every import specifier of every source file is resolved and
 * checked, static, type-only and dynamic, and so are the `new URL('…', import.meta.url)` paths a
 * worker entry is found by.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../support/files.js';

const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return filesBelow(dir).filter((path) => /\.(ts|mts|tsx)$/.test(path) && !path.endsWith('.d.ts'));
}

// `import … from '…'`, `export … from '…'`, `import '…'`, `import('…')`, `new URL('…', …)`,
// and a module named in a constant that is then imported (`const X_MODULE = '…'`).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*|_MODULE\s*=\s*)(['"])([^'"\n]+)\1/g;

function specifiers(code: string): string[] {
  const out: string[] = [];
  for (const match of code.matchAll(SPECIFIER)) out.push(match[2]!);
  return out;
}

interface Edge {
  file: string;
  specifier: string;
  /** Repository-relative target for a relative specifier; undefined for a package or built-in. */
  target: string | undefined;
}

/** The edges of the files below `layer`: a folder of src (`service`) or of the repository (`scripts/`). */
function edges(layer: string): Edge[] {
  const out: Edge[] = [];
  for (const file of sources(layer.endsWith('/') ? join(ROOT, layer) : join(SRC, layer))) {
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      const target = specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/') : undefined;
      out.push({ file: relative(ROOT, file).split(sep).join('/'), specifier, target });
    }
  }
  return out;
}

const show = (e: Edge): string => `${e.file}: '${e.specifier}'`;

/**
 * The scripts that are the engine's own tooling, with the internal module each one needs: they
 * write or score the engine's data rather than use the engine.
 */
const ENGINE_TOOLS = new Set([
  // Writes grammar/generated/ in the encoding the engine decodes: the codec's other half.
  'scripts/generate-wiki-data.ts → src/engine/wiki/codec.js',
  // Writes the JSON Schema of grammar/*.json from the engine's own zod schemas.
  'scripts/write-json-schema.ts → src/engine/grammar/json-schema.js',
  // The conformance scores leave out what the engine drops on purpose, read from its grammar
  // tables (boilerplate section titles, template names as matched), so they cannot drift from it.
  'scripts/conformance/score.ts → src/engine/grammar.js',
  'scripts/conformance/wikitext-corpus.ts → src/engine/grammar.js',
]);

/** Each module of src and the modules of src it imports. */
function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const from = relative(ROOT, file).split(sep).join('/');
    // Imports only: a worker entry found by `new URL` is started, not imported.
    const targets = specifiers(readFileSync(file, 'utf8').replace(/new URL\(\s*(['"])[^'"\n]+\1/g, ''))
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(ROOT, resolve(dirname(file), s)).split(sep).join('/').replace(/\.js$/, '.ts'));
    graph.set(from, targets);
  }
  return graph;
}

/** The import cycles of a graph: every strongly connected group of two or more, or one importing itself (Tarjan). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)!.includes(v)) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('layering', () => {
  it('finds the import specifiers it checks (the scanner is not blind)', () => {
    const code = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "import './side-effect.js';",
      "const m = await import('./lazy.js');",
      "const WIKITEXT_MODULE = '../engine/wikitext/index.js';",
      "new URL('../../dist/src/workers/worker.js', here);",
    ].join('\n');
    expect(specifiers(code)).toEqual(['./a.js', '../b.js', './c.js', './side-effect.js', './lazy.js', '../engine/wikitext/index.js', '../../dist/src/workers/worker.js']);
    // Each layer is really scanned: these edges exist today, so an empty scan would be caught.
    expect(edges('service').some((e) => e.target?.startsWith('src/workers/'))).toBe(true);
    expect(edges('batch').some((e) => e.target?.startsWith('src/io/'))).toBe(true);
    expect(edges('engine').some((e) => e.target?.startsWith('src/schema/'))).toBe(true);
  });

  it('src/service never imports src/batch', () => {
    const bad = edges('service').filter((e) => e.target !== undefined && /(^|\/)src\/batch\//.test(e.target));
    expect(bad.map(show)).toEqual([]);
  });

  it('src/batch never imports src/service', () => {
    const bad = edges('batch').filter((e) => e.target !== undefined && /(^|\/)src\/service\//.test(e.target));
    expect(bad.map(show)).toEqual([]);
  });

  it('the shared layers (src/io, src/workers) import neither adapter', () => {
    const bad = [...edges('io'), ...edges('workers')].filter((e) => e.target !== undefined && /(^|\/)src\/(batch|service|cli)\//.test(e.target));
    expect(bad.map(show)).toEqual([]);
  });

  // The engine's one door: what any other code needs of the engine is public API (src/index.ts:
  // parse, parseWikitext, parseEnvelope, parseRecord …), so a library user can do what the batch
  // converter and the service do. Tests may reach inside; src/explorer is a browser bundle that
  // takes the few DOM helpers it shares with the engine directly (src/index.ts would bring
  // wikiparser-node into the page).
  it('src/io, src/workers, src/batch, src/service, src/cli, scripts/ and bench/ reach the engine only through src/index.ts', () => {
    const layers = ['io', 'workers', 'batch', 'service', 'cli', 'scripts/', 'bench/'];
    const scanned = layers.map((layer) => edges(layer));
    scanned.forEach((found, i) => expect(found.length, `${layers[i]} is scanned`).toBeGreaterThan(0));
    const bad = scanned.flat().filter((e) => e.target !== undefined && /^src\/engine(\/|$)/.test(e.target) && !ENGINE_TOOLS.has(`${e.file} → ${e.target}`));
    expect(bad.map(show)).toEqual([]);
    // Each exception is still used: one that is not must go.
    const used = new Set(scanned.flat().map((e) => `${e.file} → ${e.target}`));
    expect([...ENGINE_TOOLS].filter((edge) => !used.has(edge)), 'exceptions no longer needed').toEqual([]);
  });

  it('src/engine imports only src/engine, src/schema, grammar data (grammar/generated/ included) and packages, no Node built-ins', () => {
    const bad = edges('engine').filter((e) =>
      e.target === undefined ? e.specifier.startsWith('node:') : !/^(src\/engine\/|src\/schema\/|grammar\/(?:generated\/)?[^/]+\.json$)/.test(e.target),
    );
    expect(bad.map(show)).toEqual([]);
  });

  it('src has no import cycle (type-only and dynamic imports count)', () => {
    expect(cyclesOf(srcGraph())).toEqual([]);
  });

  it('the cycle finder finds cycles (it is not blind), and reads the whole of src', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e', 'a']], ['f', ['d']]]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c'], ['e']]);
    const src = srcGraph();
    expect(src.get('src/index.ts'), 'src/index.ts and its imports').toContain('src/engine/parse-record.ts');
    expect(src.get('src/engine/tree-store.ts'), 'type-only imports count').toContain('src/engine/dom-nodes.ts');
  });
});
