/**
 * Inputs as downloads, copies and dataset caches leave them, read through the shared readers
 * (`readInputs`, which `convert`, `convert --queue` and `import` all use), from real files:
 * cut at every byte, empty in every way, reached through symbolic links. The rule under test:
 * an input never ends silently short — what it held before the damage is read, and the damage
 * is one failure with a named code.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/batch/convert.js';
import { openDecompressed } from '../../src/io/sources/bytes.js';
import { isFailure, readInputs } from '../../src/io/sources/index.js';
import type { SourceFailure, SourceItem } from '../../src/io/sources/index.js';
import type { SourceRecord } from '../../src/io/record.js';
import {
  articleHtml, cut, envelope, largeDump, ndjson, parseLines, removeTempDirs, smallDump, tempDir, writeBzip2Blocks,
  writeDatasetCache, writeSnapshotMembers, xmlDump,
} from './fixtures.js';

afterAll(removeTempDirs);

async function read(inputs: string[]): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readInputs(inputs, { exclude: new Set(), onRawBytes: () => undefined, wholeFileLimit: 64 * 1024 * 1024 })) items.push(item);
  return items;
}

const records = (items: SourceItem[]): SourceRecord[] => items.filter((i): i is SourceRecord => !isFailure(i));
const failures = (items: SourceItem[]): SourceFailure[] => items.filter(isFailure);
const text = (record: SourceRecord): string => Buffer.from(record.payload.bytes).toString('utf8');

/** The `<page>…</page>` spans wholly inside `xml`, and the title of a page cut after its `</title>`. */
function pagesIn(xml: string): { pages: string[]; cutTitle: string | undefined } {
  const pages = [...xml.matchAll(/<page>[\s\S]*?<\/page>/g)].map((m) => m[0]);
  const rest = pages.length === 0 ? xml : xml.slice(xml.lastIndexOf('</page>') + '</page>'.length);
  const open = rest.indexOf('<page>');
  const cutTitle = open === -1 ? undefined : /<title>([^<]*)<\/title>/.exec(rest.slice(open))?.[1];
  return { pages, cutTitle };
}

describe('a truncated XML dump', { timeout: 120_000 }, () => {
  const dir = tempDir('cut-xml');
  const dump = smallDump();

  it('cut at any byte after its root opens: the whole pages before the cut are read, then one TRUNCATED_INPUT naming the cut page', async () => {
    const file = join(dir, 'dump.xml');
    const from = dump.indexOf('<mediawiki') + '<mediawiki '.length;
    const complete = dump.indexOf('</mediawiki>') + '</mediawiki>'.length;
    for (let length = from; length <= dump.length; length++) {
      writeFileSync(file, cut(dump, length));
      const items = await read([file]);
      const head = dump.slice(0, length);
      const { pages, cutTitle } = pagesIn(head);
      const context = `cut at byte ${length}: …${JSON.stringify(head.slice(-30))}`;
      expect(records(items).map(text), `${context}: the whole pages`).toEqual(pages);
      if (length >= complete) {
        expect(failures(items), `${context}: complete, no failure`).toEqual([]);
        continue;
      }
      expect(items.length, `${context}: one failure, last`).toBe(pages.length + 1);
      const failure = items.at(-1) as SourceFailure;
      expect([failure.code, failure.position], context).toEqual(['TRUNCATED_INPUT', pages.length + 1]);
      expect(failure.name, `${context}: the cut page's title, once read`).toBe(cutTitle);
      expect(failure.error, context).toMatch(/^truncated input: the dump ends (inside|before|after) /);
    }
  });

  it('gzip cut at any byte: the pages the cut stream still holds are read, then TRUNCATED_INPUT', async () => {
    const gz = gzipSync(dump);
    const file = join(dir, 'dump.xml.gz');
    for (let length = 10; length < gz.length; length++) {
      const bytes = cut(gz, length);
      writeFileSync(file, bytes);
      const recoverable = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      const { pages } = pagesIn(recoverable);
      const items = await read([file]);
      const context = `gzip cut at byte ${length} of ${gz.length}`;
      expect(records(items).map(text), `${context}: every page the cut stream holds`).toEqual(pages);
      expect(failures(items).map((f) => [f.code, f.position]), context).toEqual([['TRUNCATED_INPUT', pages.length + 1]]);
      expect(failures(items)[0]?.error, context).toContain('the gzip stream ends unexpectedly');
    }
  });

  it('a large gzip dump cut mid-stream behind the worker pool: no page the stream held is lost, the cut page is named', async () => {
    const full = largeDump(60, 6000);
    const gz = gzipSync(full);
    const file = join(dir, 'large.xml.gz');
    const bytes = cut(gz, Math.floor(gz.length * 0.55));
    writeFileSync(file, bytes);
    const { pages, cutTitle } = pagesIn(gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8'));
    expect(pages.length, 'the cut leaves whole pages before it').toBeGreaterThan(10);
    const out = join(dir, 'large.ndjson');
    const result = await convert({ inputs: [file], output: out, jobs: 1, quiet: true }, { writeErr: () => undefined, isTTY: false });
    expect(result.exitCode, 'exit code').toBe(1);
    expect(result.converted, 'every whole page converted').toBe(pages.length);
    const [failure] = parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8'));
    expect(failure, 'the cut page, by number and title').toMatchObject({ source: file, position: pages.length + 1, code: 'TRUNCATED_INPUT', name: cutTitle ?? `${file}:${pages.length + 1}` });
  });

  it('a cut gzip stream read slowly (as behind busy workers) still gives every byte it holds before its error', async () => {
    // Node's own stream iterator drops what the decompressor had buffered when it failed
    // (io/sources/bytes.ts, drained): ~90 KB of this file, the pages just before a cut.
    let state = 1;
    const digits = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
    const gz = gzipSync(Array.from({ length: 200_000 }, (_, i) => `line ${i} 0.${digits()}${digits()}`).join('\n'));
    const file = join(dir, 'slow.gz');
    const bytes = cut(gz, Math.floor(gz.length * 0.6));
    writeFileSync(file, bytes);
    let length = 0;
    let error: unknown;
    try {
      for await (const chunk of openDecompressed(file, 'gzip', () => undefined)) {
        length += chunk.length;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } catch (thrown) {
      error = thrown;
    }
    expect(length, 'every byte the cut stream holds').toBe(gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).length);
    expect((error as NodeJS.ErrnoException | undefined)?.code, 'then the cut').toBe('Z_BUF_ERROR');
  });

  it('bzip2 cut mid-stream: the whole blocks before the cut are read, then TRUNCATED_INPUT', async () => {
    const full = largeDump(40, 8000);
    const file = join(dir, 'large.xml.bz2');
    writeBzip2Blocks(join(dir, 'full.xml.bz2'), full);
    const bz = readFileSync(join(dir, 'full.xml.bz2'));
    for (const fraction of [0.5, 0.8, 0.99]) {
      writeFileSync(file, cut(bz, Math.floor(bz.length * fraction)));
      const items = await read([file]);
      const got = records(items).map(text);
      const context = `bzip2 cut at ${fraction}`;
      expect(got.length, `${context}: some whole pages before the cut`).toBeGreaterThan(0);
      expect(got, `${context}: the first pages of the dump, in order`).toEqual(pagesIn(full).pages.slice(0, got.length));
      expect(failures(items).map((f) => [f.code, f.position]), context).toEqual([['TRUNCATED_INPUT', got.length + 1]]);
      expect(failures(items)[0]?.error, context).toContain('the bzip2 stream ends unexpectedly');
    }
  });

  it('a damaged (not cut) gzip or bzip2 stream is UNREADABLE, not a truncation', async () => {
    const full = largeDump(40, 8000);
    const damage = (bytes: Buffer): Buffer => {
      const out = Buffer.from(bytes);
      for (let i = Math.floor(out.length * 0.6); i < Math.floor(out.length * 0.6) + 64; i++) out[i] = out[i]! ^ 0x5a;
      return out;
    };
    writeFileSync(join(dir, 'damaged.xml.gz'), damage(gzipSync(full)));
    writeBzip2Blocks(join(dir, 'whole.xml.bz2'), full);
    writeFileSync(join(dir, 'damaged.xml.bz2'), damage(readFileSync(join(dir, 'whole.xml.bz2'))));
    const items = await read([join(dir, 'damaged.xml.gz'), join(dir, 'damaged.xml.bz2')]);
    expect(failures(items).map((f) => [f.source, f.code]), 'one failure each').toEqual([
      [join(dir, 'damaged.xml.gz'), 'UNREADABLE'],
      [join(dir, 'damaged.xml.bz2'), 'UNREADABLE'],
    ]);
    expect(failures(items)[1]?.error, 'what bzip2 said').toMatch(/^cannot read input (inside|after) page \d+.*: bzip2 data is corrupt \(bzip2: .+\)$/);
    expect(records(items).length, 'the pages before the damage').toBeGreaterThan(0);
  });

  it('a dump that closes its root after its last page is complete; whitespace after it is fine', async () => {
    const file = join(dir, 'complete.xml');
    writeFileSync(file, `${dump}\n\n`);
    expect(failures(await read([file])), 'no failure').toEqual([]);
  });
});

describe('a truncated NDJSON file or snapshot', { timeout: 60_000 }, () => {
  const dir = tempDir('cut-ndjson');

  it('NDJSON cut at any byte: whole lines are records; a last line cut short is marked unterminated', async () => {
    const full = ndjson([envelope('One', 1), envelope('Two', 2), envelope('Three', 3)]);
    const file = join(dir, 'cut.ndjson');
    for (let length = 1; length <= full.length; length++) {
      writeFileSync(file, cut(full, length));
      const items = await read([file]);
      const head = full.slice(0, length);
      const lines = head.split('\n').filter((l) => l.length > 0);
      const context = `cut at byte ${length}`;
      expect(records(items).map(text), context).toEqual(lines);
      expect(records(items).map((r) => r.unterminated === true), `${context}: only a last line without its newline is unterminated`).toEqual(lines.map((_, i) => i === lines.length - 1 && !head.endsWith('\n')));
    }
  });

  it('through convert: a last line cut inside its JSON is TRUNCATED_INPUT; a whole last line without a newline converts; a bad line inside stays MALFORMED_JSON', async () => {
    const file = join(dir, 'mixed.ndjson');
    const whole = join(dir, 'whole.ndjson');
    writeFileSync(file, `${JSON.stringify(envelope('One', 1))}\n{"name": "Bad"\n${JSON.stringify(envelope('Two', 2))}\n${JSON.stringify(envelope('Three', 3)).slice(0, 80)}`);
    writeFileSync(whole, JSON.stringify(envelope('Four', 4)));
    const out = join(dir, 'out.ndjson');
    const result = await convert({ inputs: [file, whole], output: out, jobs: 2, quiet: true }, { writeErr: () => undefined, isTTY: false });
    expect(result.converted, 'One, Two, Four').toBe(3);
    const errors = parseLines(readFileSync(`${out}.errors.ndjson`, 'utf8'));
    expect(errors.map((e) => [e.position, e.code]), 'the two failures').toEqual([[2, 'MALFORMED_JSON'], [4, 'TRUNCATED_INPUT']]);
    expect(String(errors[1]?.message), 'says why').toMatch(/^truncated input: the last line ends without a newline, inside its JSON \(malformed JSON: .+\)/);
  });

  it('a snapshot cut between two gzip members (valid gzip, no tar end): its records, then TRUNCATED_INPUT', async () => {
    const members = { 'part_0.ndjson': ndjson([envelope('One', 1), envelope('Two', 2)]), 'part_1.ndjson': ndjson([envelope('Three', 3)]) };
    await writeSnapshotMembers(join(dir, 'complete.tar.gz'), members);
    await writeSnapshotMembers(join(dir, 'cut.tar.gz'), members, false);
    expect(failures(await read([join(dir, 'complete.tar.gz')])), 'the complete one reads without failure').toEqual([]);
    const items = await read([join(dir, 'cut.tar.gz')]);
    expect(records(items).length, 'every record before the cut').toBe(3);
    expect(failures(items).map((f) => [f.code, f.error]), 'the missing end named').toEqual([
      ['TRUNCATED_INPUT', 'truncated input: the tar archive ends without its end-of-archive blocks, after member part_1.ndjson (an incomplete download or copy?)'],
    ]);
  });

  it('a snapshot written by convert reads back whole; cut inside, it gives the records before the cut and TRUNCATED_INPUT', async () => {
    const input = join(dir, 'many.ndjson');
    writeFileSync(input, ndjson(Array.from({ length: 30 }, (_, i) => envelope(`Page ${i}`, i + 1, 5))));
    const snapshot = join(dir, 'written.tar.gz');
    await convert({ inputs: [input], output: snapshot, jobs: 2, quiet: true, chunkBytes: 8 * 1024 }, { writeErr: () => undefined, isTTY: false });
    const whole = await read([snapshot]);
    expect([records(whole).length, failures(whole)], 'all 30 Articles, no failure').toEqual([30, []]);
    const bytes = readFileSync(snapshot);
    writeFileSync(join(dir, 'written-cut.tar.gz'), cut(bytes, Math.floor(bytes.length / 2)));
    const items = await read([join(dir, 'written-cut.tar.gz')]);
    expect(records(items).length, 'some records before the cut').toBeGreaterThan(0);
    expect(records(items).length, 'not all').toBeLessThan(30);
    expect(failures(items).map((f) => f.code), 'one truncation').toEqual(['TRUNCATED_INPUT']);
  });
});

describe('an input that holds nothing', () => {
  const dir = tempDir('empty');

  it.each([
    ['zero.html', '', 'empty input: the file is 0 bytes'],
    ['blank.json', ' \n\t\n', 'empty input: nothing but whitespace'],
    ['bom.html', '\uFEFF\n', 'empty input: nothing but whitespace'],
    ['blank.ndjson', '\n\n   \n', 'empty input: no record, only blank lines'],
    ['zero.ndjson', '', 'empty input: the file is 0 bytes'],
    ['zero.xml', '', 'empty input: the file is 0 bytes'],
    ['no-pages.xml', xmlDump([]), 'empty input: the dump holds no <page>'],
  ])('%s is one EMPTY_INPUT failure', async (name, content, message) => {
    writeFileSync(join(dir, name), content);
    expect(await read([join(dir, name)]), 'one failure, at the first record').toEqual([{ source: join(dir, name), position: 1, code: 'EMPTY_INPUT', error: message }]);
  });

  it('an empty gzip stream (.xml.gz, .ndjson.gz) and an archive without NDJSON are EMPTY_INPUT too', async () => {
    writeFileSync(join(dir, 'empty.xml.gz'), gzipSync(''));
    writeFileSync(join(dir, 'empty.ndjson.gz'), gzipSync('\n'));
    await writeSnapshotMembers(join(dir, 'readme.tar.gz'), { 'README.txt': 'no records here' });
    const items = await read([join(dir, 'empty.xml.gz'), join(dir, 'empty.ndjson.gz'), join(dir, 'readme.tar.gz')]);
    expect(items.map((i) => [isFailure(i) && i.code, isFailure(i) && i.error]), 'three failures').toEqual([
      ['EMPTY_INPUT', 'empty input: the gzip stream holds 0 bytes'],
      ['EMPTY_INPUT', 'empty input: no record, only blank lines'],
      ['EMPTY_INPUT', 'empty input: the archive holds no NDJSON record'],
    ]);
  });

  it('a directory with no input file is EMPTY_INPUT, naming the files it ignored; an empty subdirectory of a corpus is not', async () => {
    mkdirSync(join(dir, 'nothing'));
    mkdirSync(join(dir, 'parquet'));
    writeFileSync(join(dir, 'parquet', 'train-00000.parquet'), 'PAR1');
    writeFileSync(join(dir, 'parquet', 'README.md'), '# data');
    mkdirSync(join(dir, 'corpus', 'empty-sub'), { recursive: true });
    writeFileSync(join(dir, 'corpus', 'A.html'), articleHtml('A'));
    const items = await read([join(dir, 'nothing'), join(dir, 'parquet'), join(dir, 'corpus')]);
    expect(failures(items).map((f) => [f.source, f.position, f.code]), 'the two directories that hold nothing').toEqual([
      [join(dir, 'nothing'), 0, 'EMPTY_INPUT'],
      [join(dir, 'parquet'), 0, 'EMPTY_INPUT'],
    ]);
    expect(failures(items)[1]?.error, 'counts the ignored files').toMatch(/^empty input: the directory holds no input file \(names ending \.html, .*\); 2 other files ignored$/);
    expect(records(items).map((r) => r.source), 'the corpus is read').toEqual([join(dir, 'corpus', 'A.html')]);
  });
});

describe('symbolic links', () => {
  it('a dataset cache (Hugging Face layout): links to files and directories followed, each real file read once, under the link path', async () => {
    const cache = writeDatasetCache(join(tempDir('hf'), 'datasets--wiki--articles'));
    const items = await read([cache]);
    expect(failures(items), 'nothing unreadable').toEqual([]);
    const snapshots = join(cache, 'snapshots');
    expect(records(items).map((r) => [r.source, r.position]), 'rev1 read whole; rev2 adds only Beta (its Alpha and data/ are rev1\'s files)').toEqual([
      [join(snapshots, 'rev1', 'Alpha.html'), 1],
      [join(snapshots, 'rev1', 'data', 'records.ndjson'), 1],
      [join(snapshots, 'rev1', 'data', 'records.ndjson'), 2],
      [join(snapshots, 'rev2', 'Beta.html'), 1],
    ]);
  });

  it('a link to a file given as an input, twice, or beside its target: read once', async () => {
    const dir = tempDir('links-once');
    writeFileSync(join(dir, 'Real.html'), articleHtml('Real'));
    symlinkSync('Real.html', join(dir, 'Alias.html'));
    const items = await read([join(dir, 'Alias.html'), join(dir, 'Real.html'), dir]);
    expect(items.map((i) => i.source), 'the first path only').toEqual([join(dir, 'Alias.html')]);
  });

  it('dangling links, link loops and directory cycles: one named failure each, the rest is read', async () => {
    const dir = tempDir('links-broken');
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'sub', 'Good.html'), articleHtml('Good'));
    symlinkSync('../../gone/Missing.html', join(tree, 'a-dangling.html'));
    symlinkSync('b-loop-2.html', join(tree, 'b-loop-1.html'));
    symlinkSync('b-loop-1.html', join(tree, 'b-loop-2.html'));
    symlinkSync('..', join(tree, 'sub', 'c-up'));
    symlinkSync('nowhere', join(tree, 'notes.txt')); // named like no input: never read, never reported
    symlinkSync(join(dir, 'also-gone.xml'), join(dir, 'top-dangling.xml'));
    const items = await read([tree, join(dir, 'top-dangling.xml')]);
    expect(items.map((i) => [i.source, isFailure(i) ? i.code : 'record']), 'in walk order').toEqual([
      [join(tree, 'a-dangling.html'), 'DANGLING_SYMLINK'],
      [join(tree, 'b-loop-1.html'), 'SYMLINK_LOOP'],
      [join(tree, 'b-loop-2.html'), 'SYMLINK_LOOP'],
      [join(tree, 'sub', 'Good.html'), 'record'],
      [join(tree, 'sub', 'c-up'), 'SYMLINK_LOOP'],
      [join(dir, 'top-dangling.xml'), 'DANGLING_SYMLINK'],
    ]);
    expect(failures(items).map((f) => f.error), 'each names its target').toEqual([
      'dangling symbolic link → ../../gone/Missing.html',
      'symbolic link loop: → b-loop-2.html → b-loop-1.html → … never reaches a file',
      'symbolic link loop: → b-loop-1.html → b-loop-2.html → … never reaches a file',
      `symbolic link loop: → .. leads back to ${tree}, a directory it is inside of; not followed`,
      `dangling symbolic link → ${join(dir, 'also-gone.xml')}`,
    ]);
    expect(failures(items).every((f) => f.position === 0), 'position 0: nothing could be opened').toBe(true);
  });
});
