/** The engine version follows the grammar: an edited rule is a new version, so cached Articles are parsed again. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE_VERSION, OUTPUT_REVISION, engineVersion } from '../../../src/service/content/engine-version.js';
import { WIKISTRUCT_VERSION } from '../../../src/service/content/upstream/user-agent.js';

const GRAMMAR = fileURLToPath(new URL('../../../grammar/', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'wikistruct-grammar-'));
cpSync(GRAMMAR, copy, { recursive: true });
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The grammar files of a directory as the engine loads them: each JSON file's value by name, grammar/generated/ included. */
function grammarIn(dir: string): Record<string, unknown> {
  const files = [
    ...readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'article.schema.json'),
    ...readdirSync(join(dir, 'generated')).filter((f) => f.endsWith('.json')).map((f) => `generated/${f}`),
  ];
  return Object.fromEntries(files.map((f) => [f.slice(0, -'.json'.length), JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown]));
}

const edit = (file: string, change: (data: Record<string, unknown>) => void): void => {
  const path = join(copy, file);
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  change(data);
  writeFileSync(path, JSON.stringify(data, null, 2));
};

describe('ENGINE_VERSION', () => {
  it('is the package version, the revision and a hash of the grammar files the engine loaded', () => {
    expect(ENGINE_VERSION).toMatch(/^\d+\.\d+\.\d+[^+]*\+\d+\.[0-9a-f]{12}$/);
    expect(ENGINE_VERSION, 'the checked-in grammar/ is what was hashed').toBe(engineVersion(WIKISTRUCT_VERSION, grammarIn(GRAMMAR), OUTPUT_REVISION));
  });

  it('changes when a rule changes, and not when a file is only reformatted', () => {
    const before = engineVersion(WIKISTRUCT_VERSION, grammarIn(copy), OUTPUT_REVISION);
    edit('sections.json', () => undefined); // rewritten with other whitespace, same values
    expect(engineVersion(WIKISTRUCT_VERSION, grammarIn(copy), OUTPUT_REVISION), 'reformatted').toBe(before);

    edit('noise.json', (d) => (d.classes as { match: string; why: string }[]).push({ match: 'my-banner', why: 'a local banner that is not content' }));
    const added = engineVersion(WIKISTRUCT_VERSION, grammarIn(copy), OUTPUT_REVISION);
    expect(added, 'a rule added').not.toBe(before);

    edit('sections.json', (d) => ((d.boilerplate as Record<string, string[]>).en![0] = 'Referencez'));
    expect(engineVersion(WIKISTRUCT_VERSION, grammarIn(copy), OUTPUT_REVISION), 'a title changed').not.toBe(added);
  });

  it('changes with the package version and the code revision', () => {
    const grammar = grammarIn(GRAMMAR);
    const base = engineVersion('1.0.0', grammar, 1);
    expect(engineVersion('1.0.1', grammar, 1)).not.toBe(base);
    expect(engineVersion('1.0.0', grammar, 2)).not.toBe(base);
    expect(engineVersion('1.0.0', Object.fromEntries(Object.entries(grammar).reverse()), 1), 'the order files are given in does not matter').toBe(base);
  });
});
