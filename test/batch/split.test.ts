import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpanCut, splitLines, splitSpans } from '../../src/io/sources/split.js';

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

  it('frees each read chunk once every byte of it is in a line, not before', async () => {
    const line = (c: string): string => `{"x":"${c.repeat(20_000)}"}\n`;
    const whole = Buffer.from(line('a') + line('b'));
    // Chunk 1 ends inside the second line; chunk 2 completes it. Each chunk owns its buffer, as a file's do.
    const cut = line('a').length + 100;
    const first = new Uint8Array(whole.subarray(0, cut));
    const second = new Uint8Array(whole.subarray(cut));
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield first;
      yield second;
    }
    const lines: string[] = [];
    for await (const { bytes } of splitLines(chunks())) {
      lines.push(text(bytes).slice(6, 7));
      if (lines.length === 1) expect(first.byteLength, 'the chunk holding the next line\'s start is kept').toBe(cut);
    }
    expect(lines).toEqual(['a', 'b']);
    expect([first.byteLength, second.byteLength], 'both freed once their lines are out').toEqual([0, 0]);
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
        for await (const span of splitSpans(chunked(input, cuts), '<page>', '</page>', { onPrefix: (p) => prefixes.push(text(p)) })) spans.push(text(span));
        expect(spans, 'the page spans, markers included').toEqual(['<page>A</page>', '<page>B&lt;</page>']);
        expect(prefixes, 'the bytes before the first page').toEqual(['<mediawiki><siteinfo>S</siteinfo>\n']);
      }),
    );
  });

  it('hands over the bytes after the last span, whatever the chunking: where a dump closes its root', async () => {
    const input = Buffer.from('<mediawiki><page>A</page>\n  <page>B</page>\n</mediawiki>\n');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const suffixes: string[] = [];
        for await (const _ of splitSpans(chunked(input, cuts), '<page>', '</page>', { onPrefix: () => undefined, onSuffix: (s) => suffixes.push(text(s)) }));
        expect(suffixes, 'once, the closing tag included').toEqual(['\n</mediawiki>\n']);
      }),
    );
  });

  it('frees each read chunk once no open span needs its bytes, and keeps the prefix and suffix intact', async () => {
    const a = 'a'.repeat(20_000);
    const b = 'b'.repeat(20_000);
    // Each chunk owns its buffer, as a file's do. The first page runs over three chunks.
    const first = new Uint8Array(Buffer.from(`<mediawiki><siteinfo>S</siteinfo>\n<page>${a}`));
    const second = new Uint8Array(Buffer.from(b));
    const third = new Uint8Array(Buffer.from(`${b}</page>\n<page>${a}</page>\n</mediawiki>\n${'c'.repeat(20_000)}`));
    const whileOpen: number[] = [];
    const firstLength = first.length;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield first;
      yield second;
      whileOpen.push(first.byteLength);
      yield third;
    }
    const spans: string[] = [];
    let prefix = '';
    let suffix = '';
    const onPrefix = (p: Uint8Array): void => {
      prefix = text(p);
    };
    const onSuffix = (p: Uint8Array): void => {
      suffix = text(p);
    };
    for await (const span of splitSpans(chunks(), '<page>', '</page>', { onPrefix, onSuffix }, 4 * 1024 * 1024, 64 * 1024)) spans.push(text(span));
    expect(whileOpen, 'the first chunk is kept while the page it opens is open').toEqual([firstLength]);
    expect(spans).toEqual([`<page>${a}${b}${b}</page>`, `<page>${a}</page>`]);
    expect(prefix).toBe('<mediawiki><siteinfo>S</siteinfo>\n');
    expect(suffix).toBe(`\n</mediawiki>\n${'c'.repeat(20_000)}`);
    expect([first.byteLength, second.byteLength, third.byteLength], 'all freed once their spans are out').toEqual([0, 0, 0]);
  });

  it('a stream ending inside a span throws SpanCut holding the span so far, whatever the chunking', async () => {
    const input = Buffer.from('<mediawiki><page>A</page><page><title>B</title> and mo');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const spans: string[] = [];
        let thrown: unknown;
        try {
          for await (const span of splitSpans(chunked(input, cuts), '<page>', '</page>', { onPrefix: () => undefined })) spans.push(text(span));
        } catch (error) {
          thrown = error;
        }
        expect(spans, 'the whole span').toEqual(['<page>A</page>']);
        expect(thrown, 'the cut').toBeInstanceOf(SpanCut);
        expect(text((thrown as SpanCut).partial), 'the cut span, to the last byte').toBe('<page><title>B</title> and mo');
      }),
    );
  });

  it('a stream failing inside a span throws SpanCut with the failure as its cause', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('<page>A</page><page><ti');
      throw new Error('unexpected end of file');
    }
    const error = await (async () => {
      try {
        for await (const _ of splitSpans(failing(), '<page>', '</page>', { onPrefix: () => undefined }));
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error, 'a cut').toBeInstanceOf(SpanCut);
    expect([text((error as SpanCut).partial), ((error as SpanCut).cause as Error).message], 'partial and cause').toEqual(['<page><ti', 'unexpected end of file']);
  });
});

describe('splitLines at the end of a stream', () => {
  it('marks a last line without its newline, and only that one', async () => {
    const out: [string, boolean][] = [];
    for await (const { bytes, unterminated } of splitLines(chunked(Buffer.from('{"a":1}\n{"b":2}\n{"c":'), [3, 11]))) out.push([text(bytes), unterminated === true]);
    expect(out, 'lines').toEqual([['{"a":1}', false], ['{"b":2}', false], ['{"c":', true]]);
  });
});
