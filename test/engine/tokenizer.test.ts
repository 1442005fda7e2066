/**
 * src/engine/tokenizer.ts replaces htmlparser2's `fastForwardTo` by a native search. The tree
 * builder's tests compare whole trees with parseDocument; these check the override itself: that
 * it still replaces a method htmlparser2 has (an upgrade that renamed it would silently lose the
 * speed, not the output), and that the tokenizer emits the very same events with it as without,
 * written at once or in chunks (where the buffer's offset is not 0).
 */
import fc from 'fast-check';
import { Tokenizer } from 'htmlparser2';
import type { TokenizerCallbacks } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { ForwardingTokenizer } from '../../src/engine/tokenizer.js';

/** Every callback the tokenizer makes, with its arguments, in order. */
function events(make: (cbs: TokenizerCallbacks) => Tokenizer, chunks: readonly string[]): string[] {
  const out: string[] = [];
  const cbs = new Proxy({} as TokenizerCallbacks, {
    get: (_, name) => (...args: unknown[]) => void out.push(`${String(name)}(${args.join(',')})`),
  });
  const tokenizer = make(cbs);
  for (const chunk of chunks) tokenizer.write(chunk);
  tokenizer.end();
  return out;
}

const plain = (cbs: TokenizerCallbacks): Tokenizer => new Tokenizer({ decodeEntities: false }, cbs);
const forwarding = (cbs: TokenizerCallbacks): Tokenizer => new ForwardingTokenizer({ decodeEntities: false }, cbs);

const piece = fc.oneof(
  fc.constantFrom('<p>', '</p>', '<a href="x">', "<b title='y'>", '<!-- c -->', '<!--', '-->', '<![CDATA[x]]>', '<script>', '</script>',
    '<style>', '</style>', '<title>', '</title>', '<textarea>', '</textarea>', '&amp;', '<', '>', '"', "'", '=', '\n'),
  fc.string({ unit: fc.constantFrom('a', ' ', '<', '>', '/', '"', "'", '=', '-', '!'), maxLength: 12 }),
);

describe('ForwardingTokenizer (tokenizer.ts)', () => {
  it('replaces a method htmlparser2’s Tokenizer has', () => {
    expect(Object.hasOwn(Tokenizer.prototype, 'fastForwardTo')).toBe(true);
    expect(Object.hasOwn(ForwardingTokenizer.prototype, 'fastForwardTo')).toBe(true);
    expect((ForwardingTokenizer.prototype as unknown as Record<string, unknown>)['fastForwardTo']).not.toBe((Tokenizer.prototype as unknown as Record<string, unknown>)['fastForwardTo']);
  });

  it('emits the events of htmlparser2’s own, written whole or in chunks', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 4 }), (pieces, cuts) => {
        const html = pieces.join('');
        expect(events(forwarding, [html]), html).toEqual(events(plain, [html]));
        const at = [...new Set(cuts.map((c) => c % (html.length + 1)))].sort((a, b) => a - b);
        const chunks = at.map((end, i) => html.slice(at[i - 1] ?? 0, end)).concat(html.slice(at.at(-1) ?? 0));
        expect(events(forwarding, chunks), JSON.stringify(chunks)).toEqual(events(plain, chunks));
      }),
      { numRuns: 2_000 },
    );
  });
});
