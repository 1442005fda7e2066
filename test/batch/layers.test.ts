/**
 * The layers stay apart: the engine is pure (its own modules, the Article schema, the grammar
 * data and npm packages, no Node built-ins), and the two adapters, the batch converter and the
 * service, share code through src/io and src/workers, never through each other. Every import
 * specifier of every source file is resolved and checked, static and dynamic, and so are the
 * `new URL('…', import.meta.url)` paths a worker entry is found by.
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

function edges(layer: string): Edge[] {
  const out: Edge[] = [];
  for (const file of sources(join(SRC, layer))) {
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      const target = specifier.startsWith('.') ? relative(ROOT, resolve(dirname(file), specifier)).split(sep).join('/') : undefined;
      out.push({ file: relative(ROOT, file).split(sep).join('/'), specifier, target });
    }
  }
  return out;
}

const show = (e: Edge): string => `${e.file}: '${e.specifier}'`;

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

  // The engine's one door: what an adapter needs of the engine is public API (src/index.ts), so a
  // library user can do what the service does. Enforced for the service and the CLI; the shared
  // layers and the batch converter follow when the engine's door (parseRecord) is in place.
  it('src/service and src/cli reach the engine only through src/index.ts', () => {
    const bad = [...edges('service'), ...edges('cli')].filter((e) => e.target !== undefined && /(^|\/)src\/engine(\/|$)/.test(e.target));
    expect(bad.map(show)).toEqual([]);
  });

  it('src/engine imports only src/engine, src/schema, grammar data (grammar/generated/ included) and packages, no Node built-ins', () => {
    const bad = edges('engine').filter((e) =>
      e.target === undefined ? e.specifier.startsWith('node:') : !/^(src\/engine\/|src\/schema\/|grammar\/(?:generated\/)?[^/]+\.json$)/.test(e.target),
    );
    expect(bad.map(show)).toEqual([]);
  });
});
