/**
 * `wikistruct convert` and `wikistruct import` on inputs as they are found on disk: folders of
 * symbolic links (dataset caches), links that lead nowhere or in circles, files cut short by a
 * download that stopped, inputs that hold nothing. The built CLI in a child process, real files.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleHtml, brokenInputs, cut, largeDump, parseLines, removeTempDirs, tempDir, writeBzip2Blocks, writeDatasetCache } from '../batch/fixtures.js';
import { cli } from './cli.js';

afterAll(removeTempDirs);

/** The lead of `articleHtml(title)`. */
const lead = (title: string): string => `${title} is the subject of this article.`;
/** What a cut last line is reported as: the JSON parser's own words, read from the parser that runs the workers. */
function cutLineMessage(line: string): string {
  let jsonError = '';
  try {
    JSON.parse(line);
  } catch (error) {
    jsonError = (error as Error).message;
  }
  return `truncated input: the last line ends without a newline, inside its JSON (malformed JSON: ${jsonError}) (an incomplete download or copy?)`;
}
const failureLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('wikistruct: '));

describe('convert: symbolic links, truncated and empty inputs', { timeout: 120_000 }, () => {
  it('a dataset cache (a folder of links into blobs/): every Article once, exit 0', async () => {
    const dir = tempDir('cli-cache');
    const cache = writeDatasetCache(join(dir, 'cache'));
    const out = join(dir, 'out.ndjson');
    const result = await cli(['convert', cache, '-o', out, '--quiet']);
    expect(result.code, result.stderr).toBe(0);
    expect(parseLines(readFileSync(out, 'utf8')).map((a) => a.abstract), 'the four Articles, each once, in walk order').toEqual(['Alpha', 'Gamma', 'Delta', 'Beta'].map(lead));
    expect(existsSync(`${out}.errors.ndjson`), 'no errors file').toBe(false);
  });

  it('dangling links, a directory cycle, a cut dump, an empty file, an empty folder: one named failure each, the rest converted, exit 1', async () => {
    const dir = tempDir('cli-broken');
    const b = brokenInputs(dir);
    const out = join(dir, 'out.ndjson');
    const result = await cli(['convert', ...b.inputs, '-o', out, '--quiet']);
    expect(result.code, 'exit code: some inputs failed').toBe(1);
    const abstracts = parseLines(readFileSync(out, 'utf8')).map((a) => String(a.abstract).split(' ').slice(0, 2).join(' '));
    expect(abstracts, 'every readable Article').toEqual(['Alpha is', 'Gamma is', 'Delta is', 'Beta is', 'Good is', 'Ada Lovelace', 'Cut one', 'Cut two', 'Cut three']);
    const truncation = 'truncated input: the dump ends inside page 4 ("Charles Babbage") (an incomplete download or copy?)';
    const lineCut = cutLineMessage(b.cutLine);
    const emptyDirectory = 'empty input: the directory holds no input file (names ending .html, .htm, .json, .jsonl, .ndjson, .wikitext (each also .gz), .xml, .xml.gz, .xml.bz2, .tar.gz, .tgz)';
    expect(failureLines(result.stderr), 'one line per failure, naming the input and the reason').toEqual([
      `wikistruct: ${join(b.broken, 'dangling.html')}: dangling symbolic link → ../gone.html`,
      `wikistruct: ${join(b.broken, 'loop', 'up')}: symbolic link loop: → .. leads back to ${b.broken}, a directory it is inside of; not followed`,
      `wikistruct: ${b.cutDump}:4: ${truncation}`,
      `wikistruct: ${b.cutNdjson}:4: ${lineCut}`,
      `wikistruct: ${b.empty}:1: empty input: no record, only blank lines`,
      `wikistruct: ${b.top}: dangling symbolic link → ${join(dir, 'gone-too.html')}`,
      `wikistruct: ${b.nothing}: ${emptyDirectory}`,
    ]);
    expect(parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8')), 'the errors file').toEqual([
      { name: `${join(b.broken, 'dangling.html')}:0`, source: join(b.broken, 'dangling.html'), position: 0, code: 'DANGLING_SYMLINK', message: 'dangling symbolic link → ../gone.html' },
      { name: `${join(b.broken, 'loop', 'up')}:0`, source: join(b.broken, 'loop', 'up'), position: 0, code: 'SYMLINK_LOOP', message: `symbolic link loop: → .. leads back to ${b.broken}, a directory it is inside of; not followed` },
      { name: 'Charles Babbage', source: b.cutDump, position: 4, code: 'TRUNCATED_INPUT', message: truncation },
      { name: `${b.cutNdjson}:4`, source: b.cutNdjson, position: 4, code: 'TRUNCATED_INPUT', message: lineCut },
      { name: `${b.empty}:1`, source: b.empty, position: 1, code: 'EMPTY_INPUT', message: 'empty input: no record, only blank lines' },
      { name: `${b.top}:0`, source: b.top, position: 0, code: 'DANGLING_SYMLINK', message: `dangling symbolic link → ${join(dir, 'gone-too.html')}` },
      { name: `${b.nothing}:0`, source: b.nothing, position: 0, code: 'EMPTY_INPUT', message: emptyDirectory },
    ]);
    expect(result.stderr, 'summary').toMatch(/converted \d+ records, 7 failed, 2 skipped/);
  });

  it('a mistyped path is still bad usage (exit 2, nothing written); a dangling link is not mistyped', async () => {
    const dir = tempDir('cli-usage');
    symlinkSync(join(dir, 'nowhere.html'), join(dir, 'link.html'));
    const typo = await cli(['convert', join(dir, 'no-such.html'), '-o', join(dir, 'a.ndjson'), '--quiet']);
    expect([typo.code, typo.stderr.trim()], 'usage error').toEqual([2, `wikistruct convert: input ${join(dir, 'no-such.html')}: no such file or directory`]);
    const link = await cli(['convert', join(dir, 'link.html'), '-o', join(dir, 'b.ndjson'), '--quiet']);
    expect(link.code, 'a failed input').toBe(1);
    expect(failureLines(link.stderr), 'named with its target').toEqual([`wikistruct: ${join(dir, 'link.html')}: dangling symbolic link → ${join(dir, 'nowhere.html')}`]);
  });

  it('the run\'s own output in an input directory reached through a link is not read as an input', async () => {
    const dir = tempDir('cli-own-output');
    mkdirSync(join(dir, 'corpus'));
    writeFileSync(join(dir, 'corpus', 'A.html'), articleHtml('A'));
    symlinkSync('corpus', join(dir, 'via-link'));
    const out = join(dir, 'corpus', 'out.ndjson');
    for (const run of [1, 2]) {
      const result = await cli(['convert', join(dir, 'via-link'), '-o', out, '--quiet']);
      expect([result.code, failureLines(result.stderr)], `run ${run}: no failure (the output of run 1 is not read by run 2)`).toEqual([0, []]);
      expect(parseLines(readFileSync(out, 'utf8')).map((a) => a.abstract), `run ${run}: one Article`).toEqual([lead('A')]);
    }
  });

  it('a .bz2 dump cut mid-stream: the same pages and the same failure with the bzip2 program and without it (the JS decoder)', async () => {
    const dir = tempDir('cli-bz2');
    writeBzip2Blocks(join(dir, 'full.xml.bz2'), largeDump(40, 8000));
    const bz = readFileSync(join(dir, 'full.xml.bz2'));
    const file = join(dir, 'cut.xml.bz2');
    writeFileSync(file, cut(bz, Math.floor(bz.length * 0.8)));
    const program = await cli(['convert', file, '-o', join(dir, 'program.ndjson'), '--quiet', '--all-pages']);
    // No bzip2 on the PATH (node is started by its absolute path): the pure-JS fallback decodes.
    const fallback = await cli(['convert', file, '-o', join(dir, 'fallback.ndjson'), '--quiet', '--all-pages'], { PATH: dir });
    for (const [label, result] of [['bzip2 program', program], ['JS fallback', fallback]] as const) {
      expect(result.code, `${label}: exit code`).toBe(1);
      expect(failureLines(result.stderr), `${label}: one truncation`).toEqual([expect.stringMatching(new RegExp(`^wikistruct: ${file}:\\d+: truncated input: the bzip2 stream ends unexpectedly (inside|after) page \\d+`))]);
    }
    const converted = (stderr: string): number => Number(/converted (\d+) records, 1 failed/.exec(stderr)?.[1]);
    expect(converted(program.stderr), 'whole blocks before the cut converted').toBeGreaterThan(10);
    expect(converted(fallback.stderr), 'the same pages either way').toBe(converted(program.stderr));
    expect(readFileSync(join(dir, 'fallback.ndjson.errors.ndjson'), 'utf8'), 'the same failure either way').toBe(readFileSync(join(dir, 'program.ndjson.errors.ndjson'), 'utf8'));
  });

  it.each(['convert', 'import'])('%s --help says links are followed and what a failed input is', async (command) => {
    const result = await cli([command, '--help']);
    expect(result.code, 'exit code').toBe(0);
    expect(result.stdout.replace(/\s+/g, ' '), 'links').toMatch(/[Ss]ymbolic links (to files and (to )?directories )?are followed/);
    expect(result.stdout.replace(/\s+/g, ' '), 'failed inputs').toContain('A dangling link, a link loop, an empty input or directory, and an input cut short');
  });
});

describe('import: the same inputs into the article store', { timeout: 120_000 }, () => {
  it('imports every readable article, names each broken input, exits 1', async () => {
    const dir = tempDir('cli-import');
    const b = brokenInputs(dir);
    const env = { ...process.env, DATABASE_URL: '', WIKISTRUCT_DATA: '' };
    const result = await cli(['import', ...b.inputs, '--data', join(dir, 'data'), '--jobs', '1'], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout.trim(), 'the summary').toMatch(
      new RegExp(`^imported 12 records in [\\d.]+ s: 9 new, 0 replaced by a newer revision, 0 already stored at this or a newer revision, 2 skipped \\(not articles\\), 7 failed$`),
    );
    expect(result.stderr.split('\n').filter((l) => l.startsWith('/')), 'one line per broken input').toEqual([
      `${join(b.broken, 'dangling.html')}: dangling symbolic link → ../gone.html`,
      `${join(b.broken, 'loop', 'up')}: symbolic link loop: → .. leads back to ${b.broken}, a directory it is inside of; not followed`,
      `${b.cutDump}:4: truncated input: the dump ends inside page 4 ("Charles Babbage") (an incomplete download or copy?)`,
      `${b.cutNdjson}:4: ${cutLineMessage(b.cutLine)}`,
      `${b.empty}:1: empty input: no record, only blank lines`,
      `${b.top}: dangling symbolic link → ${join(dir, 'gone-too.html')}`,
      `${b.nothing}: empty input: the directory holds no input file (names ending .html, .htm, .json, .jsonl, .ndjson, .wikitext (each also .gz), .xml, .xml.gz, .xml.bz2, .tar.gz, .tgz)`,
    ]);
  });
});
