/** The global setup's check: a source newer than its build output, or one never built, is named. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleSources } from './dist-freshness.js';

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A file at `path` in `dir`, last modified `at` seconds after the epoch. */
function file(dir: string, path: string, at: number): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), '');
  utimesSync(join(dir, path), at, at);
}

describe('staleSources', () => {
  it('is empty when every output is at least as new as its source', () => {
    root = mkdtempSync(join(tmpdir(), 'wikistruct-fresh-'));
    file(root, 'src/engine/parse.ts', 100);
    file(root, 'dist/src/engine/parse.js', 100);
    file(root, 'src/explorer/main.ts', 100);
    file(root, 'grammar/noise.json', 100);
    file(root, 'grammar/schema/noise.schema.json', 500);
    file(root, 'dist/grammar/noise.json', 200);
    file(root, 'dist/explorer/app.js', 200);
    expect(staleSources(root)).toEqual([]);
  });

  it('names edited sources, sources never built, and an explorer bundle older than what it bundles', () => {
    root = mkdtempSync(join(tmpdir(), 'wikistruct-fresh-'));
    file(root, 'src/engine/parse.ts', 300);
    file(root, 'dist/src/engine/parse.js', 200);
    file(root, 'src/engine/new-rule.ts', 100);
    file(root, 'src/explorer/main.ts', 100);
    file(root, 'grammar/noise.json', 300);
    file(root, 'dist/grammar/noise.json', 200);
    file(root, 'dist/explorer/app.js', 250);
    expect(staleSources(root).sort()).toEqual(
      ['grammar/noise.json', 'src/engine/new-rule.ts', 'src/engine/parse.ts', 'src/engine/parse.ts (explorer bundle)'].sort(),
    );
  });
});
