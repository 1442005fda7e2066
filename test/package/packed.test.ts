/**
 * What `npm pack` ships is a complete library and command line: installed into an empty project
 * (see install.ts), `import ... from 'wikistruct'` works, its types resolve for a consumer's `tsc`,
 * and the `wikistruct` bin prints its version and converts a page — all from the unpacked copy,
 * never from this repository's sources.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseWikitext } from '../../src/index.js';
import type { Installed } from './install.js';
import { PACKAGE, packAndInstall, ROOT } from './install.js';

const HTML = readFileSync(join(ROOT, 'corpus/lead/input.html'), 'utf8');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'corpus/lead/expected.json'), 'utf8')) as { name: string; sections: { name: string }[] };
const WIKITEXT = "'''Foo''' is a placeholder.<ref>A source.</ref>\n\n== History ==\nIt was used early.\n\n== References ==\n<references />\n";
const WIKITEXT_META = { name: 'Foo', project: 'enwiki', revision: 7 };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the consumer project, with this test's node first on PATH (the bin's shebang uses it). */
function inProject(installed: Installed, command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: installed.project,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the packed package, installed into an empty project', { timeout: 120_000 }, () => {
  let installed: Installed;

  beforeAll(async () => {
    installed = await packAndInstall();
    writeFileSync(join(installed.project, 'page.html'), HTML);
  }, 120_000);

  afterAll(() => {
    if (installed !== undefined) rmSync(installed.root, { recursive: true, force: true });
  });

  it('the tarball holds the built library, the grammar it imports, LICENSE and README, and no tests, benchmarks, scripts or sources', () => {
    const files = installed.files;
    for (const needed of ['LICENSE', 'README.md', 'package.json', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/workers/worker.js', 'dist/grammar/noise.json', 'grammar/common-passwords.txt', 'dist/explorer/index.html', 'dist/explorer/app.js', 'dist/explorer/app.css']) {
      expect(files, `the tarball contains ${needed}`).toContain(needed);
    }
    expect(files.filter((f) => /^dist\/pglite\/template-[\d.]+\.tar\.gz$/.test(f)), 'the embedded database template (no initdb on a first start)').toHaveLength(1);
    const unwanted = files.filter((f) => /^(test|bench|scripts|src|corpus|node_modules|dist\/test|dist\/bench|dist\/scripts)\//.test(f) || /\.test\.[cm]?[jt]s$/.test(f));
    expect(unwanted, 'no test, bench, scripts, TypeScript source or corpus files').toEqual([]);
  });

  it('every source map carries the TypeScript it maps (src/ is not shipped): the very text of the sources', () => {
    const shipped = new Set(installed.files);
    const maps = installed.files.filter((f) => f.endsWith('.js.map'));
    expect(maps, 'the library ships source maps').toContain('dist/src/index.js.map');
    for (const script of installed.files.filter((f) => /^dist\/src\/.*\.js$/.test(f))) expect(shipped.has(`${script}.map`), `${script} has its map`).toBe(true);
    const packageDir = join(installed.project, 'node_modules', PACKAGE.name);
    for (const map of maps) {
      const parsed = JSON.parse(readFileSync(join(packageDir, map), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(parsed.sourcesContent?.length, `${map}: a content for each source`).toBe(parsed.sources.length);
      parsed.sources.forEach((source, i) => {
        const path = posix.join(posix.dirname(map), source);
        expect(shipped.has(path), `${map}: ${path} is not in the package, so the map must carry it`).toBe(false);
        expect(parsed.sourcesContent?.[i], `${map}: the text of ${path}`).toBe(readFileSync(join(ROOT, path), 'utf8'));
      });
    }
  });

  it("`import { parse, parseWikitext, ArticleSchema } from 'wikistruct'` works from the installed copy and gives the Articles the sources give", async () => {
    writeFileSync(
      join(installed.project, 'consumer.mjs'),
      `import { readFileSync } from 'node:fs';
import { parse, parseWikitext, ArticleSchema } from 'wikistruct';
const html = ArticleSchema.parse(parse(readFileSync('page.html', 'utf8')));
const wikitext = ArticleSchema.parse(parseWikitext(${JSON.stringify(WIKITEXT)}, ${JSON.stringify(WIKITEXT_META)}));
console.log(JSON.stringify({ resolved: import.meta.resolve('wikistruct'), html, wikitext }));
`,
    );
    const result = await inProject(installed, process.execPath, ['consumer.mjs']);
    expect(result.stderr, 'nothing on stderr').toBe('');
    expect(result.code, 'exit code').toBe(0);
    const out = JSON.parse(result.stdout) as { resolved: string; html: unknown; wikitext: unknown };
    expect(out.resolved, 'resolved inside the project, not to this repository').toBe(
      pathToFileURL(join(installed.project, 'node_modules/wikistruct/dist/src/index.js')).href,
    );
    expect(out.html, 'parse(): the reviewed fixture').toMatchObject({ name: EXPECTED.name, sections: EXPECTED.sections.map((s) => ({ name: s.name })) });
    expect(out.html, 'parse(): the same Article as the sources').toEqual(JSON.parse(JSON.stringify(parse(HTML))));
    expect(out.wikitext, 'parseWikitext(): the same Article as the sources').toEqual(JSON.parse(JSON.stringify(parseWikitext(WIKITEXT, WIKITEXT_META))));
  });

  it("the types resolve: a consumer's strict tsc accepts correct use and rejects a wrong type", async () => {
    writeFileSync(
      join(installed.project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(installed.project, 'consumer.ts'),
      `import { parse, parseWikitext, ArticleSchema, InputTooLargeError, type Article } from 'wikistruct';
const article: Article = parse('<p>Hello</p>', { maxInputBytes: 1024 });
const names: (string | undefined)[] = article.sections.map((s) => s.name);
const again: Article = ArticleSchema.parse(parseWikitext('Hello', { name: 'Hello' }));
const tooLarge: string = new InputTooLargeError(2, 1).code;
// @ts-expect-error -- types that were \`any\` would accept this, and this directive would then fail
const wrong: number = article.name;
export { names, again, tooLarge, wrong };
`,
    );
    const result = await inProject(installed, join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
    expect(result.stdout + result.stderr, 'no type errors').toBe('');
    expect(result.code, 'tsc exit code').toBe(0);
  });

  it('`wikistruct --version` prints the package version', async () => {
    const result = await inProject(installed, installed.bin, ['--version']);
    expect(result.code, 'exit code').toBe(0);
    expect(result.stdout, 'the version alone').toBe(`${PACKAGE.version}\n`);
  });

  it('`wikistruct convert page.html wikitext.json -o -` writes the Articles (HTML and wikitext engines, worker threads)', async () => {
    writeFileSync(join(installed.project, 'wikitext.json'), JSON.stringify({ name: 'Foo', article_body: { wikitext: WIKITEXT } }));
    const result = await inProject(installed, installed.bin, ['convert', 'page.html', 'wikitext.json', '-o', '-', '--quiet']);
    expect(result.code, `exit code (stderr: ${result.stderr})`).toBe(0);
    const articles = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { name?: string; sections: { name?: string }[] });
    expect(articles.map((a) => a.name), 'one Article per input, in order').toEqual([EXPECTED.name, 'Foo']);
    expect(articles[0]!.sections.map((s) => s.name), 'the HTML page: its sections').toEqual(EXPECTED.sections.map((s) => s.name));
    expect(articles[1]!.sections.map((s) => s.name), 'the wikitext envelope: its sections').toEqual(['abstract', 'History']);
  });
});
