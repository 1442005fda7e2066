/**
 * The reply cache on its own: content-coding negotiation (q-values), bytes that decode to the
 * body, the byte bound, and one encoding per key however many ask at once.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ENCODINGS, MIN_COMPRESSED_BYTES, negotiateEncoding, ReplyCache, type Encoding, type StoredReply } from '../../../src/service/content/reply-cache.js';

function decode(reply: StoredReply): string {
  if (reply.encoding === 'br') return brotliDecompressSync(reply.bytes).toString();
  if (reply.encoding === 'gzip') return gunzipSync(reply.bytes).toString();
  return reply.bytes.toString();
}

describe('negotiateEncoding', () => {
  test.each([
    [undefined, 'identity', 'no header: no coding'],
    ['', 'identity', 'empty: no coding wanted'],
    ['br', 'br', 'br alone'],
    ['gzip', 'gzip', 'gzip alone'],
    ['gzip, deflate, br', 'br', 'a browser: br preferred when weighed alike'],
    ['gzip, deflate', 'gzip', 'no br: gzip'],
    ['deflate', 'identity', 'only a coding we do not send: none'],
    ['gzip;q=1.0, br;q=0.5', 'gzip', 'a higher q wins over our preference'],
    ['br;q=0, gzip', 'gzip', 'q=0 refuses br'],
    ['br;q=0, gzip;q=0', 'identity', 'both refused: identity'],
    ['*', 'br', 'anything: our first choice'],
    ['*;q=0.1, gzip', 'gzip', '* weighs less than gzip'],
    ['identity', 'identity', 'identity asked'],
    ['identity;q=1, br;q=0.5', 'identity', 'identity weighed higher'],
    ['GZIP', 'gzip', 'case-insensitive'],
    ['x-gzip', 'gzip', 'x-gzip is gzip'],
    ['br;q=0, gzip;q=0, identity;q=0', 'identity', 'nothing acceptable: still sent without coding (RFC 9110 §12.5.3 SHOULD)'],
  ] as [string | undefined, Encoding, string][])('%j → %s (%s)', (header, expected, label) => {
    expect(negotiateEncoding(header), label).toBe(expected);
  });

  test('property: the chosen coding has the highest q among those we send, never q=0 unless nothing else is left', () => {
    const q = fc.constantFrom(0, 0.1, 0.5, 0.9, 1);
    fc.assert(
      fc.property(fc.record({ br: fc.option(q), gzip: fc.option(q), identity: fc.option(q) }), fc.boolean(), (weights, shuffle) => {
        const listed = (Object.entries(weights) as [Encoding, number | null][]).filter((e): e is [Encoding, number] => e[1] !== null);
        if (shuffle) listed.reverse();
        const header = listed.map(([name, weight]) => `${name};q=${weight}`).join(', ');
        const chosen = negotiateEncoding(header);
        const best = Math.max(0, ...listed.map(([, weight]) => weight));
        if (best === 0) return chosen === 'identity';
        const weightOf = (e: Encoding) => listed.find(([name]) => name === e)?.[1] ?? 0;
        // The highest weight; among equals the first of ENCODINGS.
        const expected = ENCODINGS.find((e) => weightOf(e) === best);
        return chosen === expected;
      }),
    );
  });
});

describe('ReplyCache', () => {
  const body = (n: number, seed = 'x') => `[${JSON.stringify({ text: `${seed} `.repeat(n) })}]`;

  test('each coding decodes to the body; small bodies are sent as they are', async () => {
    const cache = new ReplyCache(1024 * 1024);
    const big = body(2000);
    for (const encoding of ENCODINGS) {
      const { reply } = await cache.get('big', encoding, async () => big);
      expect(reply.encoding, `${encoding} asked, ${encoding} sent`).toBe(encoding);
      expect(decode(reply), `${encoding} decodes to the body`).toBe(big);
    }
    const br = (await cache.get('big', 'br', async () => big)).reply;
    expect(br.bytes.length, 'brotli actually compresses').toBeLessThan(big.length / 10);
    const small = '[{"name":"A"}]';
    expect(small.length, 'below the threshold').toBeLessThan(MIN_COMPRESSED_BYTES);
    const { reply } = await cache.get('small', 'br', async () => small);
    expect([reply.encoding, reply.bytes.toString()], 'tiny: identity even when br is asked').toEqual(['identity', small]);
  });

  test('made once per key and coding: later and concurrent callers get the stored bytes', async () => {
    const cache = new ReplyCache(1024 * 1024);
    let made = 0;
    const make = async () => {
      made += 1;
      return body(500);
    };
    const first = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', 'br', make)));
    expect(made, 'twenty concurrent misses make it once').toBe(1);
    expect(first.filter((r) => r.hit).length, 'all of them misses (they waited for it)').toBe(0);
    const again = await cache.get('k', 'br', make);
    expect([again.hit, made, again.reply.bytes.equals(first[0]!.reply.bytes)], 'then a hit with the same bytes').toEqual([true, 1, true]);
    await cache.get('k', 'gzip', make);
    expect(made, 'another coding is another entry').toBe(2);
  });

  test('a failed make is not stored: the next caller tries again', async () => {
    const cache = new ReplyCache(1024 * 1024);
    await expect(cache.get('k', 'gzip', () => Promise.reject(new Error('gone'))), 'the failure reaches the caller').rejects.toThrow('gone');
    const { reply, hit } = await cache.get('k', 'gzip', async () => body(100));
    expect([hit, decode(reply)], 'made now').toEqual([false, body(100)]);
  });

  test('property: filled with any replies, the cache never holds more bytes than its bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4 * 1024, max: 64 * 1024 }),
        fc.array(fc.record({ key: fc.integer({ min: 0, max: 40 }), size: fc.integer({ min: 1, max: 80 * 1024 }), encoding: fc.constantFrom(...ENCODINGS) }), { minLength: 1, maxLength: 60 }),
        async (maxBytes, puts) => {
          const cache = new ReplyCache(maxBytes);
          for (const put of puts) {
            // Random text (from the key and size) so compressed sizes vary too.
            const text = Array.from({ length: Math.ceil(put.size / 8) }, (_, i) => ((i * 2654435761 + put.key) >>> 0).toString(36)).join('');
            const { reply } = await cache.get(`article-${put.key}-${put.size}`, put.encoding, async () => text);
            expect(decode(reply), 'the bytes are the body').toBe(text);
            expect(cache.bytes, 'within the bound after every insert').toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('many articles: the calculated size stays within the bound, and the most recent stay', async () => {
    const maxBytes = 256 * 1024;
    const cache = new ReplyCache(maxBytes);
    for (let i = 0; i < 200; i++) await cache.get(`article-${i}`, 'identity', async () => body(3000, `article ${i}`));
    expect(cache.bytes, 'within the bound').toBeLessThanOrEqual(maxBytes);
    expect(cache.bytes, 'and used: more than half full').toBeGreaterThan(maxBytes / 2);
    expect(cache.size, 'far fewer than 200 entries kept').toBeLessThan(200);
    const newest = await cache.get('article-199', 'identity', async () => 'made again');
    expect(newest.hit, 'the newest is still there').toBe(true);
    const oldest = await cache.get('article-0', 'identity', async () => 'made again');
    expect([oldest.hit, oldest.reply.bytes.toString()], 'the oldest was evicted').toEqual([false, 'made again']);
  });

  test('a bound of 0 keeps nothing but still answers', async () => {
    const cache = new ReplyCache(0);
    const { reply, hit } = await cache.get('k', 'gzip', async () => body(200));
    expect([hit, decode(reply), cache.bytes, cache.size], 'made, not kept').toEqual([false, body(200), 0, 0]);
  });
});
