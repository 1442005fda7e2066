import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines, splitSpans } from '../../src/io/sources/split.js';

async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= at || cut >= bytes.length) continue;
    yield bytes.subarray(at, cut);
    at = cut;
  }
  yield bytes.subarray(at);
}

const text = (u: Uint8Array): string => Buffer.from(u).toString('utf8');

describe('splitLines', () => {
  it('yields each non-blank line with its line number, CR removed, whatever the chunking', async () => {
    const input = Buffer.from('{"a":1}\r\n\n  \n{"b":"é"}\n{"c":3}');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const out: [number, string][] = [];
        for await (const { line, bytes } of splitLines(chunked(input, cuts))) out.push([line, text(bytes)]);
        expect(out, 'lines and numbers').toEqual([
          [1, '{"a":1}'],
          [4, '{"b":"é"}'],
          [5, '{"c":3}'],
        ]);
      }),
    );
  });

  it('gives every line its own buffer, so it can be transferred to a worker', async () => {
    const input = Buffer.from('one\r\ntwo\n');
    const buffers = new Set<ArrayBufferLike>();
    for await (const { bytes } of splitLines(chunked(input, []))) {
      expect(bytes.byteOffset === 0 && bytes.buffer.byteLength <= bytes.length + 1, 'a buffer of its own, at most the CR beyond the line').toBe(true);
      buffers.add(bytes.buffer);
    }
    expect(buffers.size, 'no buffer shared between lines').toBe(2);
  });
});

describe('splitSpans', () => {
  it('finds <page> spans across any chunk boundary and hands the prefix over once', async () => {
    const input = Buffer.from('<mediawiki><siteinfo>S</siteinfo>\n<page>A</page>\n  <page>B&lt;</page></mediawiki>');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const prefixes: string[] = [];
        const spans: string[] = [];
        for await (const span of splitSpans(chunked(input, cuts), '<page>', '</page>', (p) => prefixes.push(text(p)))) spans.push(text(span));
        expect(spans, 'the page spans, markers included').toEqual(['<page>A</page>', '<page>B&lt;</page>']);
        expect(prefixes, 'the bytes before the first page').toEqual(['<mediawiki><siteinfo>S</siteinfo>\n']);
      }),
    );
  });
});
