/**
 * Every input format through the real pipeline (worker threads running dist/, real files), and
 * every output format. Workers run the compiled engine: `npm test` builds first.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/batch/convert.js';
import type { ConvertRun } from '../../src/batch/options.js';
import { detectInput } from '../../src/io/sources/detect.js';
import {
  articleHtml, envelope, ndjson, parseLines, readTarGz, removeTempDirs, smallDump, tempDir, writeBzip2, writeGzip, writeSnapshotArchive,
} from './fixtures.js';

afterAll(removeTempDirs);

const quietIo = (): { writeErr: (t: string) => void; isTTY: boolean; log: string[] } => {
  const log: string[] = [];
  return { writeErr: (t: string) => void log.push(t), isTTY: false, log };
};

async function run(options: Omit<ConvertRun, 'jobs'> & { jobs?: number }) {
  const io = quietIo();
  const result = await convert({ jobs: 2, quiet: true, ...options }, io);
  return { ...result, stderr: io.log.join('') };
}

const titles = (path: string): unknown[] => parseLines(readFileSync(path, 'utf8')).map((a) => a.name);

describe('input formats', { timeout: 60_000 }, () => {
  it('a directory of .html files, recursively, dot files included, into a directory named by input file', async () => {
    const dir = tempDir('html-dir');
    mkdirSync(join(dir, 'in', 'sub'), { recursive: true });
    mkdirSync(join(dir, 'in', '.git'));
    writeFileSync(join(dir, 'in', 'Alpha.html'), articleHtml('Alpha'));
    writeFileSync(join(dir, 'in', 'sub', 'Beta.html'), articleHtml('Beta'));
    writeFileSync(join(dir, 'in', '.NET_Foundation.html'), articleHtml('NET'));
    writeFileSync(join(dir, 'in', '.git', 'Ignored.html'), articleHtml('Ignored'));
    writeFileSync(join(dir, 'in', 'notes.txt'), 'not an article');
    const result = await run({ inputs: [join(dir, 'in')], output: join(dir, 'out') });
    expect(result.exitCode, 'exit code').toBe(0);
    expect(readdirSync(join(dir, 'out')).sort(), 'one .json per .html file').toEqual(['.NET_Foundation.json', 'Alpha.json', 'Beta.json']);
    const beta = JSON.parse(readFileSync(join(dir, 'out', 'Beta.json'), 'utf8')) as { abstract?: string };
    expect(beta.abstract, 'the Article of Beta.html').toBe('Beta is the subject of this article.');
  });

  it('one envelope JSON file (pretty-printed) and single .html files', async () => {
    const dir = tempDir('single');
    writeFileSync(join(dir, 'env.json'), JSON.stringify(envelope('Gamma', 3), null, 2));
    writeFileSync(join(dir, 'page.html'), articleHtml('Delta'));
    expect((await detectInput(join(dir, 'env.json'))).kind, 'pretty JSON detected as one document').toBe('json');
    const result = await run({ inputs: [join(dir, 'env.json'), join(dir, 'page.html')], output: join(dir, 'out.ndjson') });
    expect(result.converted, 'two records').toBe(2);
    const [gamma, delta] = parseLines(readFileSync(join(dir, 'out.ndjson'), 'utf8'));
    expect(gamma?.identifier, 'envelope metadata kept').toBe(3);
    expect(delta?.abstract, 'html converted').toBe('Delta is the subject of this article.');
  });

  it('NDJSON envelopes, plain and gzip, keep the input order on 2 workers', async () => {
    const dir = tempDir('ndjson');
    // Uneven sizes so that workers finish out of order.
    const values = Array.from({ length: 40 }, (_, i) => envelope(`Title ${i}`, i + 1, i % 3 === 0 ? 200 : 1));
    writeFileSync(join(dir, 'in.ndjson'), ndjson(values));
    writeGzip(join(dir, 'in.ndjson.gz'), ndjson(values));
    const expected = values.map((v) => v.name);
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'plain.ndjson') });
    await run({ inputs: [join(dir, 'in.ndjson.gz')], output: join(dir, 'gz.ndjson') });
    expect(titles(join(dir, 'plain.ndjson')), 'plain NDJSON: input order').toEqual(expected);
    expect(readFileSync(join(dir, 'gz.ndjson'), 'utf8'), 'gzip input gives the same output').toBe(readFileSync(join(dir, 'plain.ndjson'), 'utf8'));
  });

  it('--from forces the reader when neither name nor content tells', async () => {
    const dir = tempDir('from');
    writeFileSync(join(dir, 'page.txt'), `Saved from the browser\n${articleHtml('Eta')}`);
    const guessed = await run({ inputs: [join(dir, 'page.txt')], output: join(dir, 'guessed.ndjson') });
    expect(guessed.failed, 'undetectable without --from').toBe(1);
    const forced = await run({ inputs: [join(dir, 'page.txt')], output: join(dir, 'forced.ndjson'), from: 'html' });
    expect(forced.exitCode, 'exit code with --from html').toBe(0);
    expect(parseLines(readFileSync(join(dir, 'forced.ndjson'), 'utf8'))[0]?.abstract, 'read as HTML').toBe('Eta is the subject of this article.');
  });

  it('one envelope per line in a file named .json is read as NDJSON', async () => {
    const dir = tempDir('json-ndjson');
    writeFileSync(join(dir, 'records.json'), ndjson([envelope('Iota', 9), envelope('Kappa', 10)]));
    expect((await detectInput(join(dir, 'records.json'))).kind, 'detected as NDJSON').toBe('ndjson');
    await run({ inputs: [join(dir, 'records.json')], output: join(dir, 'out.ndjson') });
    expect(titles(join(dir, 'out.ndjson')), 'both lines converted').toEqual(['Iota', 'Kappa']);
  });

  it('a snapshot archive (.tar.gz of NDJSON files), member by member', async () => {
    const dir = tempDir('snapshot-in');
    await writeSnapshotArchive(join(dir, 'enwiki.tar.gz'), {
      'enwiki_0.ndjson': ndjson([envelope('One', 1), envelope('Two', 2)]),
      'README.txt': 'skipped',
      'enwiki_1.ndjson': ndjson([envelope('Three', 3)]),
    });
    expect((await detectInput(join(dir, 'enwiki.tar.gz'))).kind, 'detected as snapshot').toBe('snapshot');
    const result = await run({ inputs: [join(dir, 'enwiki.tar.gz')], output: join(dir, 'out.ndjson') });
    expect(result.converted, 'three records').toBe(3);
    expect(titles(join(dir, 'out.ndjson')), 'archive order').toEqual(['One', 'Two', 'Three']);
  });

  it('an envelope carrying only article_body.wikitext goes through the wikitext parser, keeping the envelope metadata', async () => {
    const dir = tempDir('wikitext-envelope');
    const env = {
      name: 'Zeta', identifier: 26, version: { identifier: 260 }, url: 'https://en.wikipedia.org/wiki/Zeta',
      is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
      license: [{ identifier: 'CC-BY-SA-4.0', name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' }],
      article_body: { wikitext: "'''Zeta''' is the sixth letter.\n\n== Use ==\nIn [[mathematics]]." },
    };
    writeFileSync(join(dir, 'in.ndjson'), ndjson([env]));
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'out.ndjson') });
    const [zeta] = parseLines(readFileSync(join(dir, 'out.ndjson'), 'utf8'));
    expect(zeta?.abstract, 'text from the wikitext').toBe('Zeta is the sixth letter.');
    expect(zeta?.identifier, 'envelope identifier').toBe(26);
    expect(zeta?.license, 'envelope license kept').toEqual(env.license);
    // The envelope's fields take their place in the one key order of every Article (they used to
    // be appended after `references` on this path only).
    expect(Object.keys(zeta ?? {}), 'key order').toEqual([
      'name', 'identifier', 'abstract', 'url', 'version', 'is_part_of', 'in_language', 'license', 'sections', 'infoboxes', 'tables', 'references',
    ]);
  });

  describe('.wikitext files: one page each, titled after the file', { timeout: 60_000 }, () => {
    // Opens with a template, as most articles do: by its first byte it would be JSON.
    const page = "{{Infobox person\n| name = Ada Lovelace\n| occupation = [[Mathematician]]\n}}\n'''Ada Lovelace''' was an English [[mathematician]].\n\n== Work ==\nShe wrote the first program.";
    const siteinfo = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" xml:lang="fo">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>fowiki</dbname>
    <base>https://fo.wikipedia.org/wiki/Fors%C3%AD%C3%B0a</base>
    <case>first-letter</case>
    <namespaces><namespace key="0" case="first-letter" /></namespaces>
  </siteinfo>
</mediawiki>
`;

    it('by name, even when the page opens like JSON; through the wikitext parser, with no wiki it was not told', async () => {
      const dir = tempDir('wikitext-file');
      writeFileSync(join(dir, 'Ada_Lovelace.wikitext'), page);
      expect((await detectInput(join(dir, 'Ada_Lovelace.wikitext'))).kind, 'detected by name').toBe('wikitext');
      const result = await run({ inputs: [join(dir, 'Ada_Lovelace.wikitext')], output: join(dir, 'out.ndjson') });
      expect(result.exitCode, `exit code (${result.stderr})`).toBe(0);
      const [ada] = parseLines(readFileSync(join(dir, 'out.ndjson'), 'utf8'));
      expect(ada?.name, 'the title from the file name, underscores as spaces').toBe('Ada Lovelace');
      expect(ada?.abstract, 'text from the wikitext').toBe('Ada Lovelace was an English mathematician.');
      expect((ada?.infoboxes as { name: string }[] | undefined)?.map((i) => i.name), 'the infobox the page opens with').toEqual(['Infobox person']);
      expect(ada?.is_part_of, 'no project is made up').toBeUndefined();
      expect(ada?.url, 'no URL is made up').toBeUndefined();
    });

    it('--siteinfo names the wiki: project, language and URL, as a dump names its pages', async () => {
      const dir = tempDir('wikitext-siteinfo');
      writeFileSync(join(dir, 'Ada_Lovelace.wikitext'), page);
      writeFileSync(join(dir, 'siteinfo.xml'), siteinfo);
      const result = await run({ inputs: [join(dir, 'Ada_Lovelace.wikitext')], output: join(dir, 'out.ndjson'), siteinfo: join(dir, 'siteinfo.xml') });
      expect(result.exitCode, `exit code (${result.stderr})`).toBe(0);
      const [ada] = parseLines(readFileSync(join(dir, 'out.ndjson'), 'utf8'));
      expect(ada?.is_part_of, 'project from <dbname>').toMatchObject({ identifier: 'fowiki' });
      expect(ada?.in_language, 'language of the project').toMatchObject({ identifier: 'fo' });
      expect(ada?.url, 'URL on the wiki of <base>').toBe('https://fo.wikipedia.org/wiki/Ada_Lovelace');
    });

    it('gzipped, in a directory (named after the file), and forced with --from on any other name', async () => {
      const dir = tempDir('wikitext-dir');
      mkdirSync(join(dir, 'in'));
      writeFileSync(join(dir, 'in', 'Ada_Lovelace.wikitext'), page);
      writeGzip(join(dir, 'in', 'Charles_Babbage.wikitext.gz'), "'''Charles Babbage''' was an English polymath.");
      const result = await run({ inputs: [join(dir, 'in')], output: join(dir, 'out') });
      expect(result.exitCode, `exit code (${result.stderr})`).toBe(0);
      expect(readdirSync(join(dir, 'out')).sort(), 'one .json per .wikitext file').toEqual(['Ada_Lovelace.json', 'Charles_Babbage.json']);
      const charles = JSON.parse(readFileSync(join(dir, 'out', 'Charles_Babbage.json'), 'utf8')) as { name?: string; abstract?: string };
      expect(charles, 'the gzipped page').toMatchObject({ name: 'Charles Babbage', abstract: 'Charles Babbage was an English polymath.' });

      writeFileSync(join(dir, 'page.txt'), page);
      const forced = await run({ inputs: [join(dir, 'page.txt')], output: join(dir, 'forced.ndjson'), from: 'wikitext' });
      expect(forced.exitCode, `exit code (${forced.stderr})`).toBe(0);
      const [untitled] = parseLines(readFileSync(join(dir, 'forced.ndjson'), 'utf8'));
      expect(untitled?.infoboxes, 'read as wikitext').toHaveLength(1);
    });

    it('an XML dump misnamed .wikitext is still read as a dump: content wins over the name', async () => {
      const dir = tempDir('wikitext-misnamed');
      writeFileSync(join(dir, 'dump.wikitext'), smallDump());
      expect((await detectInput(join(dir, 'dump.wikitext'))).kind, 'detected as xml').toBe('xml');
    });
  });

  describe('MediaWiki XML dumps', { timeout: 60_000 }, async () => {
    const dir = tempDir('xml');
    writeFileSync(join(dir, 'dump.xml'), smallDump());
    writeGzip(join(dir, 'dump.xml.gz'), smallDump());
    writeBzip2(join(dir, 'dump.xml.bz2'), smallDump());

    it.each(['dump.xml', 'dump.xml.gz', 'dump.xml.bz2'])('%s: articles only by default, metadata from the page', async (file) => {
      expect((await detectInput(join(dir, file))).kind, 'detected as xml').toBe('xml');
      const out = join(dir, `${file}.out.ndjson`);
      const result = await run({ inputs: [join(dir, file)], output: out });
      expect(result.skipped, 'the redirect and the template page are skipped').toBe(2);
      expect(result.exitCode, 'exit code').toBe(0);
      const articles = parseLines(readFileSync(out, 'utf8'));
      expect(articles.map((a) => a.name), 'the two articles, in dump order').toEqual(['Ada Lovelace', 'Charles Babbage']);
      const ada = articles[0]!;
      expect(ada.identifier, 'page id').toBe(1001);
      expect(ada.version, 'revision id').toMatchObject({ identifier: 5001 });
      expect(ada.date_modified, 'revision timestamp').toBe('2024-01-02T03:04:05Z');
      expect(ada.url, 'url from <siteinfo> base').toBe('https://en.wikipedia.org/wiki/Ada_Lovelace');
      expect(JSON.stringify(ada), 'XML entities decoded once').toContain('mathematician');
    });

    it('--all-pages keeps the redirect and the template page', async () => {
      const out = join(dir, 'all.ndjson');
      const result = await run({ inputs: [join(dir, 'dump.xml')], output: out, allPages: true });
      expect(result.skipped, 'nothing skipped').toBe(0);
      expect(result.converted + result.failed, 'all four pages handled').toBe(4);
    });
  });
});

describe('output formats', { timeout: 60_000 }, () => {
  const dir = tempDir('outputs');
  const values = Array.from({ length: 25 }, (_, i) => envelope(`Page ${i}`, i + 1, 5));
  writeFileSync(join(dir, 'in.ndjson'), ndjson(values));

  it('.ndjson.gz holds the same lines as .ndjson', async () => {
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'a.ndjson') });
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'a.ndjson.gz') });
    expect(gunzipSync(readFileSync(join(dir, 'a.ndjson.gz'))).toString('utf8'), 'decompressed gzip output').toBe(readFileSync(join(dir, 'a.ndjson'), 'utf8'));
  });

  it('--format snapshot: a .tar.gz of NDJSON chunk files holding every record in order', async () => {
    const result = await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'snap.tar.gz'), format: 'snapshot', chunkBytes: 8 * 1024 });
    expect(result.exitCode, 'exit code').toBe(0);
    const entries = await readTarGz(join(dir, 'snap.tar.gz'));
    expect(entries.length, 'several chunks of ~8 KiB').toBeGreaterThan(1);
    expect(entries.map((e) => e.name), 'chunk names').toEqual(entries.map((_, i) => `snap_${i}.ndjson`));
    expect(entries.map((e) => e.text).join(''), 'chunks concatenated = the NDJSON output').toBe(readFileSync(join(dir, 'a.ndjson'), 'utf8'));
  });

  it('a directory output names multi-record inputs by title', async () => {
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'dir') });
    expect(readdirSync(join(dir, 'dir')).length, 'one file per record').toBe(25);
    expect(existsSync(join(dir, 'dir', 'Page_7.json')), 'title with spaces as underscores').toBe(true);
  });
});

describe('per-record failures', { timeout: 60_000 }, () => {
  it('go to <output>.errors.ndjson with name, position and message; the other records convert; exit code 1', async () => {
    const dir = tempDir('errors');
    const text = [
      JSON.stringify(envelope('Good one', 1)),
      '{"name": "Broken", "article_body": {"html": ',
      JSON.stringify({ name: 'Empty', article_body: { html: '   ' } }),
      JSON.stringify([1, 2]),
      JSON.stringify(envelope('Good two', 2)),
    ].join('\n');
    writeFileSync(join(dir, 'in.ndjson'), text);
    const out = join(dir, 'out.ndjson');
    const result = await run({ inputs: [join(dir, 'in.ndjson'), join(dir, 'missing.html')], output: out });
    expect(result.exitCode, 'non-zero exit code').toBe(1);
    expect(titles(out), 'good records still converted').toEqual(['Good one', 'Good two']);
    const errors = parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8'));
    expect(errors.map((e) => [e.position, e.code]), 'one line per failure, with its position and code').toEqual([
      [2, 'MALFORMED_JSON'],
      [3, 'NOT_HTML'],
      [4, 'INVALID_INPUT'],
      [0, 'UNREADABLE'],
    ]);
    expect(errors[1]?.name, 'the name of a record that had one').toBe('Empty');
    expect(errors[3]?.message, 'a missing input is named with its reason').toContain('no such file');
    expect(result.stderr, 'stderr names the file and position of each failure').toContain(`${join(dir, 'in.ndjson')}:2: malformed JSON`);
  });

  it('a truncated compressed input fails with a reason after the records it did hold', async () => {
    const dir = tempDir('truncated');
    const many = Array.from({ length: 200 }, (_, i) => envelope(`Cut ${i}`, i + 1, 20));
    writeGzip(join(dir, 'full.ndjson.gz'), ndjson(many));
    const gz = readFileSync(join(dir, 'full.ndjson.gz'));
    writeFileSync(join(dir, 'cut.ndjson.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    writeBzip2(join(dir, 'full.xml.bz2'), smallDump());
    const bz = readFileSync(join(dir, 'full.xml.bz2'));
    writeFileSync(join(dir, 'cut.xml.bz2'), bz.subarray(0, bz.length - 40));
    const out = join(dir, 'out.ndjson');
    const result = await run({ inputs: [join(dir, 'cut.ndjson.gz'), join(dir, 'cut.xml.bz2')], output: out });
    expect(result.exitCode, 'exit code').toBe(1);
    expect(result.converted, 'the records before the cut are converted').toBeGreaterThan(0);
    const errors = parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8'));
    expect(errors.map((e) => e.source), 'one failure per truncated input').toEqual([join(dir, 'cut.ndjson.gz'), join(dir, 'cut.xml.bz2')]);
    expect(errors.map((e) => e.code), 'named as truncation').toEqual(['TRUNCATED_INPUT', 'TRUNCATED_INPUT']);
    expect(String(errors[1]?.message), 'bzip2 reason').toContain('the bzip2 stream ends unexpectedly');
    expect(String(errors[0]?.message), 'gzip reason').toContain('the gzip stream ends unexpectedly');
  });

  it('a record that exhausts its worker heap fails alone: the worker is replaced, the records queued behind it are retried', async () => {
    const dir = tempDir('oom');
    const values = [envelope('Small 1', 1), envelope('Small 2', 2), envelope('Huge', 3, 30_000), envelope('Small 3', 4), envelope('Small 4', 5), envelope('Small 5', 6)];
    writeFileSync(join(dir, 'in.ndjson'), ndjson(values));
    const out = join(dir, 'out.ndjson');
    const result = await run({ inputs: [join(dir, 'in.ndjson')], output: out, jobs: 1, workerHeapMb: 32 });
    expect(result.exitCode, 'exit code').toBe(1);
    expect(titles(out), 'every other record converted, in order').toEqual(['Small 1', 'Small 2', 'Small 3', 'Small 4', 'Small 5']);
    const errors = parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8'));
    expect(errors.map((e) => [e.position, e.code]), 'only the huge record failed').toEqual([[3, 'OUT_OF_MEMORY']]);
    expect(String(errors[0]?.message), 'names the cap and the flag').toContain('heap cap 32 MB, --worker-heap');
  });

  it('a run without failures leaves no errors file', async () => {
    const dir = tempDir('no-errors');
    writeFileSync(join(dir, 'in.ndjson'), ndjson([envelope('Fine', 1)]));
    await run({ inputs: [join(dir, 'in.ndjson')], output: join(dir, 'out.ndjson') });
    expect(existsSync(join(dir, 'out.ndjson.errors.ndjson')), 'no errors file').toBe(false);
  });
});
