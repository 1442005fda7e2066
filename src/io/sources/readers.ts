/**
 * One reader per input kind. Each yields the file's records in order, streaming: only a single
 * .html or .json file is read whole.
 */
import { readFile, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { SourceRecord } from '../record.js';
import type { Compression } from './bytes.js';
import { openDecompressed, openRaw } from './bytes.js';
import type { InputKind } from './detect.js';
import { readSiteInfo } from './siteinfo.js';
import type { SiteInfo } from './siteinfo.js';
import { splitLines, splitSpans } from './split.js';

export interface ReaderContext {
  /** Called with the size of each raw (compressed) chunk read from disk. */
  onRawBytes: (n: number) => void;
  /** Largest single .html/.json file read whole; bigger `.json` files are streamed as NDJSON. */
  wholeFileLimit: number;
}

export function readFileRecords(path: string, kind: InputKind, compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  switch (kind) {
    case 'html':
      return readWhole(path, 'html', compression, ctx);
    case 'json':
      return readJsonDocument(path, compression, ctx);
    case 'ndjson':
      return readNdjson(openDecompressed(path, compression, ctx.onRawBytes), path);
    case 'snapshot':
      return readSnapshot(path, ctx);
    case 'xml':
      return readXmlDump(path, compression, ctx);
    default: {
      const never: never = kind;
      throw new Error(`unknown input kind ${String(never)}`);
    }
  }
}

async function* readWhole(path: string, kind: 'html' | 'json', compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  let bytes: Uint8Array;
  if (compression === 'none') {
    // Never read a huge file whole: one article is at most --max-input-bytes, and the engine says so.
    const { size } = await stat(path);
    if (size > ctx.wholeFileLimit) throw new Error(`${size} bytes is too large for one article (limit ${ctx.wholeFileLimit} bytes)`);
    const buffer = await readFile(path);
    ctx.onRawBytes(buffer.length);
    bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  } else {
    const parts: Uint8Array[] = [];
    for await (const chunk of openDecompressed(path, compression, ctx.onRawBytes)) parts.push(chunk);
    bytes = new Uint8Array(Buffer.concat(parts));
  }
  // readFile may hand out a view of a larger pooled buffer: give the payload its own.
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) bytes = bytes.slice();
  yield { source: path, position: 1, wholeFile: true, payload: { kind, bytes } };
}

async function* readJsonDocument(path: string, compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  const { size } = await stat(path);
  if (compression === 'none' && size > ctx.wholeFileLimit) {
    // Too big to be one article: it can only be useful as one envelope per line.
    yield* readNdjson(openDecompressed(path, compression, ctx.onRawBytes), path);
    return;
  }
  yield* readWhole(path, 'json', compression, ctx);
}

async function* readNdjson(stream: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<SourceRecord> {
  for await (const { line, bytes } of splitLines(stream)) {
    yield { source, position: line, wholeFile: false, payload: { kind: 'json', bytes } };
  }
}

const NDJSON_MEMBER = /\.(ndjson|jsonl|json)$/i;

/** A structured-contents snapshot: a .tar.gz of NDJSON files, read entry by entry. */
async function* readSnapshot(path: string, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  const extract = tar.extract();
  const raw = openRaw(path, ctx.onRawBytes);
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  raw.on('error', (error) => extract.destroy(error));
  gunzip.on('error', (error) => extract.destroy(error));
  raw.pipe(gunzip).pipe(extract);
  for await (const entry of extract) {
    const name = entry.header.name;
    if (entry.header.type !== 'file' || !NDJSON_MEMBER.test(name)) {
      entry.resume();
      continue;
    }
    yield* readNdjson(entry as AsyncIterable<Uint8Array>, `${path}:${name}`);
  }
}

/** A MediaWiki XML export: one record per `<page>`, each carrying the dump's site information. */
async function* readXmlDump(path: string, compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  let site: SiteInfo = {};
  let position = 0;
  const stream = openDecompressed(path, compression, ctx.onRawBytes);
  const pages = splitSpans(stream, '<page>', '</page>', (prefix) => {
    site = readSiteInfo(Buffer.from(prefix).toString('utf8'));
  });
  for await (const bytes of pages) {
    position += 1;
    yield { source: path, position, wholeFile: false, payload: { kind: 'xml-page', bytes, site } };
  }
}
