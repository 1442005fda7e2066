/**
 * Inputs the batch tests build for themselves: small Parsoid-style HTML articles, envelopes,
 * NDJSON (plain and gzip), snapshot archives (tar-stream) and MediaWiki XML dumps (gzip, bzip2),
 * and the broken ones real downloads and caches leave: cut files, folders of symbolic links.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';

const created: string[] = [];

export function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `wikistruct-${label}-`));
  created.push(dir);
  return dir;
}

/** For afterAll: removes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A small article; `paragraphs` makes it heavier to parse (for runs that must last a while). */
export function articleHtml(title: string, paragraphs = 1): string {
  const body = Array.from({ length: paragraphs }, (_, i) =>
    `<p>${title} paragraph ${i} links <a rel="mw:WikiLink" href="./Target_${i}">target ${i}</a> and says <b>something</b> about it.</p>`,
  ).join('');
  return (
    `<!DOCTYPE html><html><head><title>${title}</title><base href="//en.wikipedia.org/wiki/"></head><body>` +
    `<section data-mw-section-id="0"><p>${title} is the subject of this article.</p></section>` +
    `<section data-mw-section-id="1"><h2>History</h2>${body}</section></body></html>`
  );
}

export function envelope(title: string, identifier: number, paragraphs = 1): Record<string, unknown> {
  return {
    name: title,
    identifier,
    url: `https://en.wikipedia.org/wiki/${title.replace(/ /g, '_')}`,
    version: { identifier: identifier * 10 },
    is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
    in_language: { identifier: 'en' },
    article_body: { html: articleHtml(title, paragraphs) },
  };
}

export function ndjson(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + '\n';
}

export function writeGzip(path: string, text: string): void {
  writeFileSync(path, gzipSync(text));
}

export function writeBzip2(path: string, text: string): void {
  writeFileSync(path, execFileSync('bzip2', ['-c'], { input: text }));
}

/** A snapshot archive: a .tar.gz holding the given NDJSON members. */
export async function writeSnapshotArchive(path: string, members: Record<string, string>): Promise<void> {
  const pack = tar.pack();
  for (const [name, text] of Object.entries(members)) pack.entry({ name }, text);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const part of pack) parts.push(part as Buffer);
  writeFileSync(path, gzipSync(Buffer.concat(parts)));
}

/** The names and contents of the files in a .tar.gz, in archive order. */
export async function readTarGz(path: string): Promise<{ name: string; text: string }[]> {
  const extract = tar.extract();
  extract.end(gunzipSync(readFileSync(path)));
  const out: { name: string; text: string }[] = [];
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part as Buffer);
    out.push({ name: entry.header.name, text: Buffer.concat(parts).toString('utf8') });
  }
  return out;
}

interface DumpPage {
  title: string;
  ns: number;
  id: number;
  revision: number;
  timestamp: string;
  text: string;
  redirect?: string;
}

/** A `pages-articles` style export: siteinfo plus pages, text XML-escaped as MediaWiki does. */
export function xmlDump(pages: DumpPage[]): string {
  const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const body = pages
    .map(
      (p) => `  <page>
    <title>${escape(p.title)}</title>
    <ns>${p.ns}</ns>
    <id>${p.id}</id>
${p.redirect === undefined ? '' : `    <redirect title="${escape(p.redirect)}" />\n`}    <revision>
      <id>${p.revision}</id>
      <parentid>1</parentid>
      <timestamp>${p.timestamp}</timestamp>
      <contributor><username>Someone</username><id>7</id></contributor>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text bytes="${Buffer.byteLength(p.text)}" xml:space="preserve">${escape(p.text)}</text>
      <sha1>abc</sha1>
    </revision>
  </page>
`,
    )
    .join('');
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
    <generator>MediaWiki 1.41.0</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="10" case="first-letter">Template</namespace>
    </namespaces>
  </siteinfo>
${body}</mediawiki>
`;
}

/** Two articles, one redirect, one template: the dump every XML test uses. */
export function smallDump(): string {
  return xmlDump([
    { title: 'Ada Lovelace', ns: 0, id: 1001, revision: 5001, timestamp: '2024-01-02T03:04:05Z', text: "'''Ada Lovelace''' was an English [[mathematician]] & writer.\n\n== Work ==\nShe wrote <ref>A note</ref> the first program.\n\n== References ==\n<references />" },
    { title: 'Lovelace', ns: 0, id: 1002, revision: 5002, timestamp: '2024-01-02T03:04:06Z', text: '#REDIRECT [[Ada Lovelace]]', redirect: 'Ada Lovelace' },
    { title: 'Template:Infobox person', ns: 10, id: 1003, revision: 5003, timestamp: '2024-01-02T03:04:07Z', text: '{{{name|}}} <noinclude>docs</noinclude>' },
    { title: 'Charles Babbage', ns: 0, id: 1004, revision: 5004, timestamp: '2024-01-03T00:00:00Z', text: "'''Charles Babbage''' was an English polymath.\n\n== Difference engine ==\nHe designed the [[difference engine]]." },
  ]);
}

export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.length > 0);
}

export function parseLines(text: string): Record<string, unknown>[] {
  return lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `bytes` cut to its first `length` bytes, as a download that stopped there leaves it. */
export function cut(bytes: Uint8Array | string, length: number): Buffer {
  return Buffer.from(bytes).subarray(0, length);
}

/** Deterministic words (a linear congruential generator), so that a cut lands at the same place every run. */
export function words(seed: number, count: number): string {
  const vocabulary = ['river', 'stone', 'engine', 'letter', 'harbour', 'garden', 'number', 'silver', 'window', 'market', 'theory', 'island'];
  let state = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out.push(`${vocabulary[state % vocabulary.length]}${state % 97}`);
  }
  return out.join(' ');
}

/** A dump of `count` articles of ~`size` bytes of text each: large enough to span gzip buffers and bzip2 blocks. */
export function largeDump(count: number, size: number): string {
  return xmlDump(
    Array.from({ length: count }, (_, i) => ({
      title: `Page ${i + 1}`, ns: 0, id: 2000 + i, revision: 9000 + i, timestamp: '2024-02-01T00:00:00Z',
      text: `'''Page ${i + 1}''' is an article.\n\n== Body ==\n${words(i + 1, Math.ceil(size / 10))}`,
    })),
  );
}

/** bzip2 with 100 kB blocks (`-1`): a cut file still holds whole blocks before the cut. */
export function writeBzip2Blocks(path: string, text: string): void {
  writeFileSync(path, execFileSync('bzip2', ['-1', '-c'], { input: text, maxBuffer: 64 * 1024 * 1024 }));
}

/**
 * A snapshot as `wikistruct convert -o x.tar.gz` writes it: each member its own gzip member, the
 * tar end-of-archive blocks in a last one. `complete: false` leaves that last member out, as a
 * copy or download that stopped exactly between two members does.
 */
export async function writeSnapshotMembers(path: string, members: Record<string, string>, complete = true): Promise<void> {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(members)) {
    const pack = tar.pack();
    pack.entry({ name }, text);
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    // tar-stream's pack ends with the 1024-byte end-of-archive: each member keeps its entry only.
    const tarBytes = Buffer.concat(chunks);
    parts.push(gzipSync(tarBytes.subarray(0, tarBytes.length - 1024)));
  }
  if (complete) parts.push(gzipSync(Buffer.alloc(1024)));
  writeFileSync(path, Buffer.concat(parts));
}

/**
 * A dataset cache laid out as Hugging Face's: content in `blobs/` under hash names, each revision
 * in `snapshots/<revision>/` as links to the blobs, `refs/main` naming the latest revision. Both
 * revisions link the same Alpha blob, and rev2's `data/` is a link to rev1's directory. Holds
 * four Articles: Alpha, Gamma and Delta (the NDJSON blob), Beta.
 */
export function writeDatasetCache(root: string): string {
  const blob = (hash: string, text: string): void => writeFileSync(join(root, 'blobs', hash), text);
  mkdirSync(join(root, 'blobs'), { recursive: true });
  mkdirSync(join(root, 'refs'));
  mkdirSync(join(root, 'snapshots', 'rev1', 'data'), { recursive: true });
  mkdirSync(join(root, 'snapshots', 'rev2'));
  writeFileSync(join(root, 'refs', 'main'), 'rev2');
  blob('a1f0', articleHtml('Alpha'));
  blob('b2e1', articleHtml('Beta'));
  blob('c3d2', ndjson([envelope('Gamma', 3), envelope('Delta', 4)]));
  symlinkSync('../../blobs/a1f0', join(root, 'snapshots', 'rev1', 'Alpha.html'));
  symlinkSync('../../../blobs/c3d2', join(root, 'snapshots', 'rev1', 'data', 'records.ndjson'));
  symlinkSync('../../blobs/a1f0', join(root, 'snapshots', 'rev2', 'Alpha.html'));
  symlinkSync('../../blobs/b2e1', join(root, 'snapshots', 'rev2', 'Beta.html'));
  symlinkSync('../rev1/data', join(root, 'snapshots', 'rev2', 'data'));
  return root;
}

/**
 * Inputs of every broken kind beside good ones: a dataset cache (4 Articles), a folder with an
 * Article, a dangling link and a directory cycle, a dump cut inside its 4th page (Ada Lovelace
 * before it), an NDJSON file cut inside its 4th line (3 Articles before it, over 1 kB: a queue
 * with 1k shards cuts it into ranges), an NDJSON file of blank lines, a dangling link, an empty
 * folder. `cutLine` is the line the NDJSON file ends with.
 */
export function brokenInputs(dir: string) {
  const cache = writeDatasetCache(join(dir, 'datasets--wiki--articles'));
  const broken = join(dir, 'broken');
  mkdirSync(join(broken, 'loop'), { recursive: true });
  writeFileSync(join(broken, 'Good.html'), articleHtml('Good'));
  symlinkSync('../gone.html', join(broken, 'dangling.html'));
  symlinkSync('..', join(broken, 'loop', 'up'));
  const dump = smallDump();
  const cutDump = join(dir, 'cut.xml');
  writeFileSync(cutDump, cut(dump, dump.indexOf("'''Charles Babbage'''")));
  const cutNdjson = join(dir, 'cut.ndjson');
  const cutLine = JSON.stringify(envelope('Cut four', 4)).slice(0, 120);
  writeFileSync(cutNdjson, ndjson([envelope('Cut one', 1), envelope('Cut two', 2), envelope('Cut three', 3)]) + cutLine);
  const empty = join(dir, 'empty.ndjson');
  writeFileSync(empty, '\n\n');
  const top = join(dir, 'top.html');
  symlinkSync(join(dir, 'gone-too.html'), top);
  const nothing = join(dir, 'nothing');
  mkdirSync(nothing);
  return { inputs: [cache, broken, cutDump, cutNdjson, empty, top, nothing], cache, broken, cutDump, cutNdjson, cutLine, empty, top, nothing };
}
