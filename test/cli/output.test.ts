/**
 * `wikistruct convert` output flags as users run them (the built CLI, real files): `-o x.json`
 * writes one Article to one file, `--pretty` indents, and whatever is refused as bad usage is
 * refused before any file or directory is created.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleHtml, envelope, ndjson, parseLines, removeTempDirs, smallDump, tempDir, xmlDump } from '../batch/fixtures.js';
import { cli } from './cli.js';

afterAll(removeTempDirs);

/** A fresh directory with one HTML page in it, so that "nothing was created" means "still just that page". */
function workspace(label: string): { dir: string; page: string } {
  const dir = tempDir(label);
  const page = join(dir, 'Alpha.html');
  writeFileSync(page, articleHtml('Alpha'));
  return { dir, page };
}

function onlyInputsLeft(dir: string, inputs: string[]): void {
  expect(readdirSync(dir).sort(), 'no output, errors file, checkpoint or directory was created').toEqual([...inputs].sort());
}

describe('convert -o FILE.json: one Article, one file', { timeout: 60_000 }, () => {
  it('one HTML input → one JSON file holding its Article (not a directory)', async () => {
    const { dir, page } = workspace('json-file');
    const out = join(dir, 'one.json');
    const result = await cli(['convert', page, '-o', out, '--quiet']);
    expect(result.code, `exit code (stderr: ${result.stderr})`).toBe(0);
    const article = JSON.parse(readFileSync(out, 'utf8')) as { abstract?: string };
    expect(article.abstract, 'the Article of the input').toBe('Alpha is the subject of this article.');
    onlyInputsLeft(dir, ['Alpha.html', 'one.json']);
  });

  it('--format json -o one.json is the same single file, not a directory named one.json', async () => {
    const { dir, page } = workspace('json-format');
    const out = join(dir, 'one.json');
    const result = await cli(['convert', page, '-o', out, '--format', 'json', '--quiet']);
    expect(result.code, 'exit code').toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')), 'a file holding an Article').toMatchObject({ abstract: 'Alpha is the subject of this article.' });
  });

  it('-o x.json/ (trailing slash) still asks for a directory', async () => {
    const { dir, page } = workspace('json-slash');
    const result = await cli(['convert', page, '-o', `${join(dir, 'x.json')}/`, '--quiet']);
    expect(result.code, 'exit code').toBe(0);
    expect(readdirSync(join(dir, 'x.json')), 'a directory with <basename>.json').toEqual(['Alpha.json']);
  });

  it('an XML dump with one article (and a redirect and a template, skipped) fits in one file', async () => {
    const dir = tempDir('json-dump-one');
    const dump = join(dir, 'one.xml');
    writeFileSync(
      dump,
      xmlDump([
        { title: 'Ada Lovelace', ns: 0, id: 1, revision: 11, timestamp: '2024-01-02T03:04:05Z', text: "'''Ada Lovelace''' was a mathematician." },
        { title: 'Lovelace', ns: 0, id: 2, revision: 12, timestamp: '2024-01-02T03:04:06Z', text: '#REDIRECT [[Ada Lovelace]]', redirect: 'Ada Lovelace' },
        { title: 'Template:Box', ns: 10, id: 3, revision: 13, timestamp: '2024-01-02T03:04:07Z', text: '{{{1}}}' },
      ]),
    );
    const result = await cli(['convert', dump, '-o', join(dir, 'ada.json'), '--quiet']);
    expect(result.code, `exit code (stderr: ${result.stderr})`).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'ada.json'), 'utf8')), 'the one article').toMatchObject({ name: 'Ada Lovelace' });
  });

  it('several inputs into one .json: exit 2 naming -o, before anything is created', async () => {
    const { dir, page } = workspace('json-many-inputs');
    writeFileSync(join(dir, 'Beta.html'), articleHtml('Beta'));
    const out = join(dir, 'one.json');
    const result = await cli(['convert', page, join(dir, 'Beta.html'), '-o', out, '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message names -o and says why').toContain(`-o ${out} holds one Article, but 2 inputs were given`);
    onlyInputsLeft(dir, ['Alpha.html', 'Beta.html']);
  });

  it('a directory input into one .json: exit 2 naming -o and the directory, before anything is created', async () => {
    const { dir } = workspace('json-dir-input');
    const out = join(dir, 'one.json');
    const result = await cli(['convert', dir, '-o', out, '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain(`-o ${out} holds one Article, but the input ${dir} is a directory`);
    onlyInputsLeft(dir, ['Alpha.html']);
  });

  it.each([
    ['NDJSON of three envelopes', 'many.ndjson', ndjson([envelope('A', 1), envelope('B', 2), envelope('C', 3)])],
    ['an XML dump of two articles', 'two.xml', smallDump()],
  ])('%s into one .json: exit 2 at the second Article, and no file is left behind', async (_label, name, content) => {
    const dir = tempDir('json-many-records');
    writeFileSync(join(dir, name), content);
    const out = join(dir, 'one.json');
    const result = await cli(['convert', join(dir, name), '-o', out, '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message names -o, the input and the alternatives').toMatch(
      new RegExp(`-o ${out} holds one Article, but ${join(dir, name)} has more \\(another at record \\d+\\); nothing was written; for several Articles use a directory`),
    );
    onlyInputsLeft(dir, [name]);
  });

  it('a one-line NDJSON file fits in one .json', async () => {
    const dir = tempDir('json-one-line');
    writeFileSync(join(dir, 'one.ndjson'), ndjson([envelope('Gamma', 3)]));
    const result = await cli(['convert', join(dir, 'one.ndjson'), '-o', join(dir, 'gamma.json'), '--quiet']);
    expect(result.code, 'exit code').toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'gamma.json'), 'utf8')), 'its Article').toMatchObject({ name: 'Gamma' });
  });

  it('an input whose one record fails: exit 1, the errors file, and no empty .json', async () => {
    const dir = tempDir('json-failed');
    writeFileSync(join(dir, 'broken.html'), '\u0000 binary');
    const out = join(dir, 'one.json');
    const result = await cli(['convert', join(dir, 'broken.html'), '-o', out, '--quiet']);
    expect(result.code, 'exit code').toBe(1);
    expect(existsSync(out), 'no output file').toBe(false);
    expect(parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8')), 'the failure recorded').toMatchObject([{ code: 'NOT_HTML' }]);
  });

  it('an existing directory named x.json is refused, pointing at x.json/', async () => {
    const { dir, page } = workspace('json-existing-dir');
    mkdirSync(join(dir, 'x.json'));
    const result = await cli(['convert', page, '-o', join(dir, 'x.json'), '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain(`-o ${join(dir, 'x.json')} is an existing directory: write into it with -o ${join(dir, 'x.json')}/`);
    expect(readdirSync(join(dir, 'x.json')), 'nothing written into it').toEqual([]);
  });
});

describe('convert: a missing input fails before any output exists', { timeout: 60_000 }, () => {
  // A good input beside the missing one is not converted either (one JSON file takes one input).
  it.each([
    ['a directory', 'out', true],
    ['NDJSON', 'out.ndjson', true],
    ['a snapshot', 'out.tar.gz', true],
    ['one JSON file', 'out.json', false],
  ])('-o %s: exit 2 naming the missing path; no output, errors file or checkpoint created', async (_label, output, withGoodInput) => {
    const { dir, page } = workspace('missing-input');
    const missing = join(dir, 'Missing.html');
    const result = await cli(['convert', ...(withGoodInput ? [page] : []), missing, '-o', join(dir, output), '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message names the path and the reason').toContain(`input ${missing}: no such file or directory`);
    onlyInputsLeft(dir, ['Alpha.html']);
  });

  it('-o -: exit 2, nothing on stdout', async () => {
    const { dir } = workspace('missing-stdout');
    const result = await cli(['convert', join(dir, 'nope', 'Missing.html'), '-o', '-', '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain(`input ${join(dir, 'nope', 'Missing.html')}: no such file or directory`);
    expect(result.stdout, 'no output').toBe('');
  });

  it('an output file in a directory that does not exist: exit 2 naming -o, before converting anything', async () => {
    const { dir, page } = workspace('missing-output-dir');
    const out = join(dir, 'nope', 'out.ndjson');
    const result = await cli(['convert', page, '-o', out, '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain(`-o ${out}: the directory ${join(dir, 'nope')} does not exist`);
    onlyInputsLeft(dir, ['Alpha.html']);
  });
});

describe('convert --pretty', { timeout: 60_000 }, () => {
  it('indents the .json file by 2 spaces; the same Article as without it', async () => {
    const { dir, page } = workspace('pretty-file');
    const compact = await cli(['convert', page, '-o', join(dir, 'compact.json'), '--quiet']);
    const pretty = await cli(['convert', page, '-o', join(dir, 'pretty.json'), '--quiet', '--pretty']);
    expect([compact.code, pretty.code], 'exit codes').toEqual([0, 0]);
    const compactText = readFileSync(join(dir, 'compact.json'), 'utf8');
    const prettyText = readFileSync(join(dir, 'pretty.json'), 'utf8');
    expect(compactText, 'without --pretty: one line').not.toContain('\n  "');
    expect(prettyText, 'with --pretty: JSON.stringify(article, null, 2)').toBe(JSON.stringify(JSON.parse(compactText), null, 2));
  });

  it('indents every file of a directory output', async () => {
    const { dir, page } = workspace('pretty-dir');
    writeFileSync(join(dir, 'Beta.html'), articleHtml('Beta'));
    const result = await cli(['convert', page, join(dir, 'Beta.html'), '-o', join(dir, 'out'), '--quiet', '--pretty']);
    expect(result.code, 'exit code').toBe(0);
    for (const file of ['Alpha.json', 'Beta.json']) {
      const text = readFileSync(join(dir, 'out', file), 'utf8');
      expect(text, `${file} indented by 2 spaces`).toBe(JSON.stringify(JSON.parse(text), null, 2));
    }
  });

  it('-o -: indented Articles on stdout, each followed by a newline', async () => {
    const { dir, page } = workspace('pretty-stdout');
    const result = await cli(['convert', page, '-o', '-', '--quiet', '--pretty']);
    expect(result.code, 'exit code').toBe(0);
    const article = JSON.parse(result.stdout) as { abstract?: string };
    expect(article.abstract, 'the Article').toBe('Alpha is the subject of this article.');
    expect(result.stdout, 'indented by 2 spaces, one newline at the end').toBe(`${JSON.stringify(article, null, 2)}\n`);
    onlyInputsLeft(dir, ['Alpha.html']);
  });

  it.each([
    [['-o', 'out.ndjson'], '--pretty indents JSON; -o out.ndjson is NDJSON, one Article per line'],
    [['-o', 'out.ndjson.gz'], '--pretty indents JSON; -o out.ndjson.gz is NDJSON, one Article per line'],
    [['-o', 'out.tar.gz'], '--pretty indents JSON; -o out.tar.gz is a snapshot of NDJSON files, one Article per line'],
    [['-o', '-', '--format', 'ndjson'], '--pretty indents JSON; --format ndjson is one Article per line'],
  ])('with NDJSON output %j: exit 2, nothing created', async (args, message) => {
    const { dir, page } = workspace('pretty-ndjson');
    const result = await cli(['convert', page, ...args.map((a) => (a.startsWith('out') ? join(dir, a) : a)), '--pretty', '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain(message.replace(/-o (out\S*)/, (_m, name: string) => `-o ${join(dir, name)}`));
    onlyInputsLeft(dir, ['Alpha.html']);
  });

  it('--resume with -o x.json: exit 2 (one file written whole at the end has no checkpoint)', async () => {
    const { dir, page } = workspace('resume-json');
    const result = await cli(['convert', page, '-o', join(dir, 'x.json'), '--resume', '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain('--resume needs a directory, NDJSON or snapshot output');
    onlyInputsLeft(dir, ['Alpha.html']);
  });
});
