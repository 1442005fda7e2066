/**
 * One reader per input kind. Each yields the file's records in order, streaming: only a single
 * .html, .json or .wikitext file is read whole. A reader that can tell an input that holds nothing
 * from one that was cut short says which (EMPTY_INPUT, TRUNCATED_INPUT): an XML dump's pages and
 * root element, a snapshot's end-of-archive blocks, an NDJSON file's last line.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import tar from 'tar-stream';
import type { SourceRecord } from '../record.js';
import type { Compression } from './bytes.js';
import { openDecompressed } from './bytes.js';
import type { InputKind } from './detect.js';
import { empty, inputErrorOf, StreamCut, truncated } from './input-error.js';
import type { InputError } from './input-error.js';
import { readSiteInfo } from './siteinfo.js';
import type { SiteInfo } from './siteinfo.js';
import { SpanCut, splitLines, splitSpans } from './split.js';
import { readCutPageTitle } from '../xml-page.js';

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
    case 'wikitext':
      return readWikitextFile(path, compression, ctx);
    case 'xml':
      return readXmlDump(path, compression, ctx);
    default: {
      const never: never = kind;
      throw new Error(`unknown input kind ${String(never)}`);
    }
  }
}

async function* readWhole(path: string, kind: 'html' | 'json' | 'wikitext', compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
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
  if (isBlank(bytes)) throw blank(bytes, compression);
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

/**
 * A page's title from its file's name, as MediaWiki writes titles in URLs: `Ada_Lovelace.html` and
 * `Ada_Lovelace.wikitext` are "Ada Lovelace". For the pages that carry no title of their own: a
 * `.wikitext` file here, a bare HTML file in the article store's import.
 */
export function titleOfFile(path: string): string {
  return basename(path).replace(/\.(?:html?|wikitext)(?:\.(?:gz|bz2))?$/i, '').replace(/_/g, ' ');
}

/** One page of wikitext, titled after its file. The wiki comes from `--siteinfo` (convert-record.ts). */
async function* readWikitextFile(path: string, compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  const name = titleOfFile(path).trim();
  for await (const record of readWhole(path, 'wikitext', compression, ctx)) {
    if (name.length > 0) record.payload.meta = { name };
    yield record;
  }
}

/** Whitespace only (a byte-order mark included): an input that holds nothing. */
function isBlank(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

function blank(bytes: Uint8Array, compression: Compression): InputError {
  if (bytes.length > 0) return empty('nothing but whitespace');
  return empty(compression === 'none' ? 'the file is 0 bytes' : `the ${compression} stream holds 0 bytes`);
}

async function* readNdjson(stream: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<SourceRecord> {
  for await (const { line, bytes, unterminated } of splitLines(stream)) {
    const record: SourceRecord = { source, position: line, wholeFile: false, payload: { kind: 'json', bytes } };
    if (unterminated === true) record.unterminated = true;
    yield record;
  }
}

const NDJSON_MEMBER = /\.(ndjson|jsonl|json)$/i;

/** The two zero blocks that end every tar archive. */
const END_OF_ARCHIVE = 1024;

/**
 * A structured-contents snapshot: a .tar.gz of NDJSON files, read entry by entry. The tar reader
 * is fed from `openDecompressed`, so a cut gzip stream still gives it every byte before the cut
 * (and the members and records in them) before its error is thrown. An archive cut exactly
 * between two gzip members (a snapshot's chunks are separate members, see sinks/snapshot.ts)
 * is valid gzip, and valid tar up to there: only the missing end-of-archive blocks tell, so the
 * last bytes of the tar stream are checked. (A last member whose content itself ended in 1024
 * zero bytes would hide a cut after it; NDJSON never does.)
 */
async function* readSnapshot(path: string, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  const extract = tar.extract();
  let failure: unknown;
  let tarBytes = 0;
  let tail: Buffer = Buffer.alloc(0);
  const pump = (async () => {
    try {
      for await (const chunk of openDecompressed(path, 'gzip', ctx.onRawBytes)) {
        tarBytes += chunk.length;
        tail = chunk.length >= END_OF_ARCHIVE ? Buffer.from(chunk.subarray(chunk.length - END_OF_ARCHIVE)) : Buffer.concat([tail, chunk]).subarray(-END_OF_ARCHIVE);
        if (extract.destroyed) return;
        if (!extract.write(chunk)) await new Promise<void>((resolve) => extract.once('drain', () => resolve()).once('close', () => resolve()));
      }
    } catch (error) {
      failure = error;
    }
    if (!extract.destroyed) extract.end(() => undefined);
  })();
  let last: string | undefined;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      last = name;
      if (entry.header.type !== 'file' || !NDJSON_MEMBER.test(name)) {
        entry.resume();
        continue;
      }
      yield* readNdjson(entry as AsyncIterable<Uint8Array>, `${path}:${name}`);
    }
  } catch (error) {
    // The tar reader's own complaint ("Unexpected end of data") follows from the stream's.
    await pump;
    throw failure ?? error;
  } finally {
    extract.destroy();
  }
  await pump;
  if (failure !== undefined) throw failure;
  if (tarBytes === 0) throw empty('the gzip stream holds 0 bytes');
  if (tail.length < END_OF_ARCHIVE || tail.some((b) => b !== 0)) {
    throw new StreamCut(`the tar archive ends without its end-of-archive blocks${last === undefined ? '' : `, after member ${last}`}`);
  }
}

/**
 * A MediaWiki XML export: one record per `<page>`, each carrying the dump's site information.
 * A dump is complete when its `<mediawiki>` root is closed. A stream that ends (or whose
 * decompression fails) inside a `<page>` loses that page: it is reported under its number and,
 * when its `<title>` was read, its title. A dump whose root is never closed lost whatever
 * followed; one that closes its root with no page in it holds nothing.
 */
async function* readXmlDump(path: string, compression: Compression, ctx: ReaderContext): AsyncGenerator<SourceRecord> {
  let site: SiteInfo = {};
  let head: Uint8Array = new Uint8Array(0);
  let tail = '';
  let position = 0;
  const stream = openDecompressed(path, compression, ctx.onRawBytes);
  const pages = splitSpans(stream, '<page>', '</page>', {
    onPrefix: (prefix) => {
      head = prefix;
      site = readSiteInfo(Buffer.from(prefix).toString('utf8'));
    },
    onSuffix: (suffix) => {
      tail = Buffer.from(suffix).toString('utf8');
    },
  });
  try {
    for await (const bytes of pages) {
      position += 1;
      yield { source: path, position, wholeFile: false, payload: { kind: 'xml-page', bytes, site } };
    }
  } catch (error) {
    if (!(error instanceof SpanCut)) throw inputErrorOf(error, position === 0 ? ' before the first page' : ` after page ${position}`);
    const name = readCutPageTitle(Buffer.from(error.partial).toString('utf8'));
    const page = `inside page ${position + 1}${name === undefined ? '' : ` ("${name}")`}`;
    const at = { position: position + 1, ...(name === undefined ? {} : { name }) };
    if (error.cause === undefined) throw truncated(`the dump ends ${page}`, at);
    throw inputErrorOf(error.cause, ` ${page}`, at);
  }
  if (position === 0 && isBlank(head)) throw blank(head, compression);
  if (Buffer.from(head).includes('<mediawiki') && !tail.includes('</mediawiki>')) {
    const where = position === 0 ? 'before its first page' : `after page ${position}`;
    throw truncated(`the dump ends ${where}, without </mediawiki>`, { position: position + 1 });
  }
  if (position === 0) throw empty('the dump holds no <page>');
}
