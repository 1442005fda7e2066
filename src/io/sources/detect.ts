/**
 * Which reader an input file needs, from its name and first bytes (or forced with `--from`).
 * Content wins over a misleading name: a gzip stream is looked into before deciding. Wikitext is
 * the exception: it has no signature (a page may open with `{{Infobox` or `<div>`), so a
 * `.wikitext` name decides, unless the content is an XML dump.
 */
import { open } from 'node:fs/promises';
import { constants, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { compressionOf } from './bytes.js';
import type { Compression } from './bytes.js';

export const INPUT_KINDS = ['html', 'json', 'ndjson', 'snapshot', 'wikitext', 'xml'] as const;
export const InputKindSchema = z.enum(INPUT_KINDS);
export type InputKind = z.infer<typeof InputKindSchema>;

export interface Detected {
  kind: InputKind;
  compression: Compression;
}

const HEAD_BYTES = 64 * 1024;

/** One page of wikitext: `Title.wikitext`, optionally gzipped. */
const WIKITEXT_NAME = /\.wikitext(\.gz)?$/i;

export async function detectInput(path: string, forced?: InputKind): Promise<Detected> {
  const head = await readHead(path);
  const compression = compressionOf(head);
  if (forced !== undefined) return { kind: forced, compression };
  const lower = path.toLowerCase();
  if (compression === 'bzip2') return { kind: 'xml', compression };
  const text = compression === 'gzip' ? gunzipHead(head) : head;
  if (compression === 'gzip' && isTar(text)) return { kind: 'snapshot', compression };
  const start = firstNonSpace(text);
  const dump = /^<\?xml[^>]*>\s*<mediawiki|^<mediawiki/.test(start);
  if (WIKITEXT_NAME.test(lower) && !dump) return { kind: 'wikitext', compression };
  if (start.startsWith('<')) return { kind: dump ? 'xml' : 'html', compression };
  if (start.startsWith('{')) {
    if (/\.(ndjson|jsonl)(\.gz)?$/.test(lower) || compression === 'gzip') return { kind: 'ndjson', compression };
    return { kind: looksLikeNdjson(text) ? 'ndjson' : 'json', compression };
  }
  // Unrecognisable content: fall back on the name, and let the reader report what is wrong.
  if (/\.(html?)$/.test(lower)) return { kind: 'html', compression };
  if (/\.(tar\.gz|tgz)$/.test(lower)) return { kind: 'snapshot', compression };
  if (/\.xml(\.gz|\.bz2)?$/.test(lower)) return { kind: 'xml', compression };
  if (/\.(ndjson|jsonl)(\.gz)?$/.test(lower)) return { kind: 'ndjson', compression };
  return { kind: 'json', compression };
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function gunzipHead(head: Uint8Array): Uint8Array {
  try {
    // A truncated stream is expected here: Z_SYNC_FLUSH returns what could be inflated so far.
    return gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return new Uint8Array(0);
  }
}

function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= 262 && Buffer.from(bytes.subarray(257, 262)).toString('latin1') === 'ustar';
}

function firstNonSpace(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 4096)).toString('utf8').replace(/^\uFEFF/, '');
  return text.trimStart();
}

/**
 * One JSON document per line? A pretty-printed document's first line (`{`) does not parse; an
 * NDJSON file's first line does and is followed by another. A single-line document is read whole.
 */
function looksLikeNdjson(head: Uint8Array): boolean {
  const nl = head.indexOf(10);
  if (nl === -1) return false;
  try {
    JSON.parse(Buffer.from(head.subarray(0, nl)).toString('utf8'));
  } catch {
    return false;
  }
  return Buffer.from(head.subarray(nl + 1)).toString('utf8').trim().length > 0;
}
