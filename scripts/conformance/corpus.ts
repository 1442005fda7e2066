/**
 * Finds the shared real-article corpus: $WIKISTRUCT_CORPUS, or ../shared/corpus beside the
 * project. Tests, the conformance report and the benchmarks read it from there, never copy it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function corpusDir(): string | undefined {
  const candidates = [process.env.WIKISTRUCT_CORPUS, join(projectRoot, '..', 'shared', 'corpus')];
  for (const c of candidates) if (c !== undefined && c.length > 0 && existsSync(join(c, 'html'))) return c;
  return undefined;
}

export interface CorpusCase {
  /** Base name shared by the input and its reference output. */
  name: string;
  kind: 'html' | 'envelope';
  path: string;
  referencePath: string | undefined;
}

export function corpusCases(dir: string): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const add = (sub: string, ext: string, kind: CorpusCase['kind']): void => {
    const folder = join(dir, sub);
    if (!existsSync(folder)) return;
    for (const file of readdirSync(folder).sort()) {
      if (!file.endsWith(ext)) continue;
      const name = basename(file, ext);
      const ref = join(dir, 'reference', `${name}.json`);
      cases.push({ name, kind, path: join(folder, file), referencePath: existsSync(ref) ? ref : undefined });
    }
  };
  add('html', '.html', 'html');
  add('articles', '.json', 'envelope');
  return cases;
}

/** The input as `parse` takes it: HTML text, or the envelope object. */
export function loadInput(c: CorpusCase): string | Record<string, unknown> {
  const text = readFileSync(c.path, 'utf8');
  return c.kind === 'html' ? text : (JSON.parse(text) as Record<string, unknown>);
}
