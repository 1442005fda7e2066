/**
 * `wikistruct convert` as users run it: the built CLI in a child process, real files.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleHtml, envelope, ndjson, parseLines, tempDir, removeTempDirs } from '../batch/fixtures.js';
import { cli } from './cli.js';

afterAll(removeTempDirs);

describe('wikistruct convert (engine issue: files in, one Article each out)', { timeout: 60_000 }, () => {
  const dir = tempDir('cli');
  writeFileSync(join(dir, 'Alpha.html'), articleHtml('Alpha'));
  writeFileSync(join(dir, 'Beta.html'), articleHtml('Beta'));
  writeFileSync(join(dir, 'broken.html'), '\u0000\u0001 binary');
  writeFileSync(join(dir, 'env.json'), JSON.stringify(envelope('Gamma', 3)));

  it('writes OUTDIR/<basename>.json per input; a failed input is named on stderr, the others convert, exit 1', async () => {
    const out = join(dir, 'out');
    const result = await cli(['convert', join(dir, 'Alpha.html'), join(dir, 'broken.html'), join(dir, 'Beta.html'), join(dir, 'env.json'), '-o', out, '--quiet']);
    expect(result.code, 'exit code when one input failed').toBe(1);
    expect(readdirSync(out).sort(), 'one file per good input').toEqual(['Alpha.json', 'Beta.json', 'env.json']);
    const failureLines = result.stderr.split('\n').filter((l) => l.startsWith('wikistruct: '));
    expect(failureLines, 'exactly one failure line, naming the file and the reason').toEqual([
      `wikistruct: ${join(dir, 'broken.html')}: input is not HTML: it contains NUL bytes (binary data?)`,
    ]);
    expect(result.stderr, 'summary line').toMatch(/converted 3 records, 1 failed, 0 skipped/);
  });

  it('-o - writes one Article per line to stdout', async () => {
    const result = await cli(['convert', join(dir, 'Alpha.html'), join(dir, 'env.json'), '-o', '-', '--quiet']);
    expect(result.code, 'exit code').toBe(0);
    const articles = parseLines(result.stdout);
    expect(articles.map((a) => a.abstract), 'two Articles in input order').toEqual([
      'Alpha is the subject of this article.',
      'Gamma is the subject of this article.',
    ]);
  });

  it('-o - with --errors FILE puts failures in that file', async () => {
    const errors = join(dir, 'stdout-errors.ndjson');
    const result = await cli(['convert', join(dir, 'broken.html'), '-o', '-', '--errors', errors, '--quiet']);
    expect(result.code, 'exit code').toBe(1);
    expect(parseLines(readFileSync(errors, 'utf8'))[0], 'the failure recorded').toMatchObject({ source: join(dir, 'broken.html'), code: 'NOT_HTML' });
  });

  it('-o naming an existing file without an output extension is refused with the reason', async () => {
    writeFileSync(join(dir, 'plainfile'), 'x');
    const result = await cli(['convert', join(dir, 'Alpha.html'), '-o', join(dir, 'plainfile'), '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'the message').toContain('is a file, not a directory');
  });

  it('--help prints the usage and exits 0', async () => {
    const result = await cli(['convert', '--help']);
    expect(result.code, 'exit code').toBe(0);
    expect(result.stdout, 'usage text').toContain('usage: wikistruct convert <input>... -o <output>');
  });

  it.each([
    [['convert', 'x.html', '-o', 'out', '--bogus'], "Unknown option '--bogus'"],
    [['convert', 'x.html'], 'missing -o/--output'],
    [['convert', '-o', 'out'], 'no input given'],
    [['convert', 'x.html', '-o', 'out', '--jobs', 'many'], '--jobs takes a whole number; got "many"'],
    [['convert', 'x.html', '-o', 'out', '--jobs', '0'], '--jobs must be between 1 and 256; got 0'],
    [['convert', 'x.html', '-o', 'out', '--format', 'xml'], '--format must be one of ndjson, json, snapshot; got "xml"'],
    [['convert', 'x.html', '-o', 'out', '--from', 'pdf'], '--from must be one of html, json, ndjson, snapshot, wikitext, xml; got "pdf"'],
    [['convert', 'x.html', '-o', 'out', '--chunk-size', 'big'], '--chunk-size takes a size in bytes'],
    [['convert', 'x.html', '-o', 'out.json.gz'], 'cannot tell the output format from -o out.json.gz'],
    [['convert', 'x.html', '-o', 'out.ndjson', '--format', 'snapshot'], '--format snapshot writes a .tar.gz'],
    [['convert', 'x.html', '-o', '-', '--resume'], '--resume needs a file or directory output'],
    [['convert', 'same.ndjson', '-o', 'same.ndjson'], 'same.ndjson is both an input and the output'],
  ])('bad usage %j exits 2 with a precise message', async (args, message) => {
    const result = await cli(args);
    expect(result.code, 'exit code 2').toBe(2);
    expect(result.stderr, 'the message').toContain(message);
  });
});

describe('progress output', { timeout: 60_000 }, () => {
  const dir = tempDir('progress');
  writeFileSync(join(dir, 'in.ndjson'), ndjson(Array.from({ length: 600 }, (_, i) => envelope(`P ${i}`, i + 1, 30))));

  it('when stderr is not a terminal: plain periodic lines with records, rate, MB/s, errors, percentage; then the summary', async () => {
    const result = await cli(['convert', join(dir, 'in.ndjson'), '-o', join(dir, 'out.ndjson'), '--progress-interval', '0.05', '-j', '2']);
    expect(result.code, 'exit code').toBe(0);
    const lines = result.stderr.split('\n').filter((l) => l.length > 0);
    const progress = lines.filter((l) => / rec\/s \| /.test(l));
    expect(progress.length, 'at least one progress line').toBeGreaterThan(0);
    expect(progress[0], 'progress line shape').toMatch(/^wikistruct convert: [\d,]+ records \| [\d,]+ rec\/s \| [\d.]+ MB\/s \| \d+ errors \| [\d.]+%/);
    expect(result.stderr.includes('\r') || result.stderr.includes('\u001b['), 'no terminal control codes').toBe(false);
    expect(lines.at(-1), 'summary line last').toMatch(/^wikistruct convert: converted 600 records, 0 failed, 0 skipped in [\d.]+ s \([\d,]+ records\/s, [\d.]+ MB\/s\) → /);
  });

  it('--quiet: only the summary line', async () => {
    const result = await cli(['convert', join(dir, 'in.ndjson'), '-o', join(dir, 'out2.ndjson'), '--progress-interval', '0.05', '--quiet']);
    const lines = result.stderr.split('\n').filter((l) => l.length > 0);
    expect(lines.length, 'one line').toBe(1);
    expect(lines[0], 'the summary').toMatch(/converted 600 records/);
    expect(existsSync(join(dir, 'out2.ndjson.checkpoint.json')), 'a finished run leaves no checkpoint').toBe(false);
  });
});
