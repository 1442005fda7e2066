/**
 * The bytes of recent /v2 replies, compressed once per content coding and then sent as they are.
 *
 * A reply is a pure function of what it contains (engine version, field selection, and which
 * revision of which article, in which project) and of its content coding, so the caller keys it
 * by exactly that: a newer revision or another selection is another key, never a stale hit, and
 * entries need no invalidation, only eviction. The cache is bounded by bytes (lru-cache with
 * `maxSize`), not by entries: one reply may be 40 bytes (`fields: ["name"]`) or 2 MB.
 *
 * Compression runs on libuv's thread pool (async zlib), not on the event loop, and concurrent
 * misses for one key share one compression (a burst of 50 requests for a new revision compresses
 * it once).
 */
import { Negotiator } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { SingleFlight } from './single-flight.js';

/** The content codings we send, in order of preference when the client weighs them alike. */
export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Below this many bytes a reply is sent uncompressed: a coding would save a few bytes at best. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli quality 5: the median Article (152 KB of JSON) becomes 30 KB in 10 ms, against 31.6 KB
 * in 5.5 ms at quality 4 (@fastify/compress's default, paid there on every request) and 27 KB in
 * 555 ms at 11 (measured on the loaded 2-core machine). Paid once per revision here, but by a
 * first request that waits for it, so not 11.
 */
const BROTLI_QUALITY = 5;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface StoredReply {
  /** The coding the bytes are in: `identity` also when the client asked for one but the reply was too small to bother. */
  encoding: Encoding;
  bytes: Buffer;
}

/**
 * Accept-Encoding header values seen lately and what they negotiated to: clients send a handful of
 * distinct values, and the cache is bounded because the header is the client's to choose.
 */
const negotiator = new Negotiator<Encoding>({ supportedValues: [...ENCODINGS], cache: new LRUCache<string, string>({ max: 1000 }) });

/**
 * The coding to answer in (RFC 9110 §12.5.3): the highest q-value among those we send, ties broken
 * by our preference (br, gzip, identity); `*` stands for any of them, `q=0` refuses one. No header
 * means no preference, answered as identity, as most servers do (and curl without --compressed
 * expects). When nothing acceptable is left (`br;q=0, gzip;q=0, identity;q=0`), the reply is still
 * identity: the RFC's "SHOULD send a response without any content coding" rather than a 406.
 */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (header === undefined) return 'identity';
  // x-gzip is gzip (RFC 9110 §8.4.1.3); tokens are case-insensitive.
  const normalized = header.toLowerCase().replace(/x-gzip/g, 'gzip');
  return negotiator.negotiate(normalized) ?? 'identity';
}

/** The tag of the replies holding an article (ReplyCache `get`'s `tags`, `forget`). */
export function articleTag(project: string, title: string): string {
  return `${project}\u0000${title}`;
}

/** Per-entry bookkeeping of lru-cache and the Map, roughly, so a cache of tiny replies is bounded too. */
const ENTRY_OVERHEAD_BYTES = 160;

export class ReplyCache {
  readonly #entries: LRUCache<string, StoredReply> | undefined;
  readonly #making = new SingleFlight<string, StoredReply>();
  /**
   * The entries holding each article (by `tags` of `get`), so that a replaced revision's replies
   * are dropped at once (`forget`) rather than held until evicted: they can never be asked for
   * again, since the key names the revision.
   */
  readonly #tagged = new Map<string, Set<string>>();
  readonly #tagsOf = new Map<string, readonly string[]>();

  /** `maxBytes` 0 keeps nothing (every reply is made, and compressed, on its own). */
  constructor(maxBytes: number) {
    this.#entries =
      maxBytes > 0
        ? new LRUCache<string, StoredReply>({
            maxSize: maxBytes,
            // Keys are UTF-16 in memory; the bytes are what the reply holds.
            sizeCalculation: (reply, key) => reply.bytes.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES,
            dispose: (_reply, key) => this.#untag(key),
          })
        : undefined;
  }

  /**
   * The reply for `key` in `encoding`: the stored bytes, or `body()` encoded once and stored.
   * `hit` says which (for the metrics). `key` must determine the body completely.
   */
  async get(key: string, encoding: Encoding, body: () => Promise<string>, tags: readonly string[] = []): Promise<{ reply: StoredReply; hit: boolean }> {
    const entryKey = `${encoding}\u0000${key}`;
    const stored = this.#entries?.get(entryKey);
    if (stored !== undefined) return { reply: stored, hit: true };
    const reply = await this.#making.run(entryKey, async () => {
      const made = await encode(Buffer.from(await body()), encoding);
      if (this.#entries !== undefined) {
        this.#entries.set(entryKey, made);
        if (tags.length > 0 && this.#entries.has(entryKey)) this.#tag(entryKey, tags);
      }
      return made;
    });
    return { reply, hit: false };
  }

  /** Drops every reply stored with `tag` (an article whose stored revision was replaced). */
  forget(tag: string): void {
    for (const entryKey of [...(this.#tagged.get(tag) ?? [])]) this.#entries?.delete(entryKey);
  }

  #tag(entryKey: string, tags: readonly string[]): void {
    this.#tagsOf.set(entryKey, tags);
    for (const tag of tags) {
      let keys = this.#tagged.get(tag);
      if (keys === undefined) this.#tagged.set(tag, (keys = new Set()));
      keys.add(entryKey);
    }
  }

  #untag(entryKey: string): void {
    for (const tag of this.#tagsOf.get(entryKey) ?? []) {
      const keys = this.#tagged.get(tag);
      keys?.delete(entryKey);
      if (keys?.size === 0) this.#tagged.delete(tag);
    }
    this.#tagsOf.delete(entryKey);
  }

  /** Bytes held, as counted against the bound (lru-cache's calculated size). */
  get bytes(): number {
    return this.#entries?.calculatedSize ?? 0;
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }
}

async function encode(plain: Buffer, encoding: Encoding): Promise<StoredReply> {
  if (encoding === 'identity' || plain.byteLength < MIN_COMPRESSED_BYTES) return { encoding: 'identity', bytes: plain };
  if (encoding === 'gzip') return { encoding, bytes: await gzipAsync(plain) };
  const params = {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: plain.byteLength,
  };
  return { encoding, bytes: await brotli(plain, { params }) };
}
