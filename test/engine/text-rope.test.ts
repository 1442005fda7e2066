/**
 * TextRope (text.ts) against a plain string: whatever appends, take-backs (`dropLast`), texts
 * written apart and replacements come in, its text is the string's and its last two code units are
 * the string's last two. `dropLast` cuts from the last piece when it knows it and from the text
 * otherwise (after `apart`, `replaceText`, or two take-backs in a row); a wrong end or a lost
 * character in any of those paths fails here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextRope } from '../../src/engine/text.js';

type Step =
  | { op: 'append'; piece: string }
  | { op: 'dropLast' }
  | { op: 'apart'; pieces: string[] }
  | { op: 'replaceText'; text: string };

// Short pieces of "[", "]", letters and an astral character, so that ends and take-backs meet.
const piece = fc.string({ unit: fc.constantFrom('[', ']', 'a', 'b', ' ', '😀'), maxLength: 4 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: piece.map((p) => ({ op: 'append' as const, piece: p })) },
  { weight: 3, arbitrary: fc.constant({ op: 'dropLast' as const }) },
  { weight: 1, arbitrary: fc.array(piece, { maxLength: 3 }).map((pieces) => ({ op: 'apart' as const, pieces })) },
  { weight: 1, arbitrary: piece.map((text) => ({ op: 'replaceText' as const, text })) },
);

const code = (s: string, i: number): number => (i >= 0 && i < s.length ? s.charCodeAt(i) : -1);

describe('TextRope', () => {
  it('reads as the string its steps make, end included', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const rope = new TextRope();
        let model = '';
        for (const s of steps) {
          if (s.op === 'append') {
            rope.append(s.piece);
            model += s.piece;
          } else if (s.op === 'dropLast') {
            // The engine takes back only a "[" it has just seen at the end (inline.ts).
            if (rope.last !== 91) continue;
            rope.dropLast();
            model = model.slice(0, -1);
          } else if (s.op === 'apart') {
            const inner = rope.apart(() => {
              for (const p of s.pieces) rope.append(p);
            });
            expect(inner).toBe(s.pieces.join(''));
          } else {
            rope.replaceText(s.text);
            model = s.text;
          }
          expect(rope.text).toBe(model);
          expect([rope.beforeLast, rope.last]).toEqual([code(model, model.length - 2), code(model, model.length - 1)]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('takes back a "[" that ends a one-character piece, and one after it from the text', () => {
    const rope = new TextRope();
    rope.append('a[');
    rope.append('[');
    rope.dropLast();
    expect([rope.text, String.fromCharCode(rope.last)]).toEqual(['a[', '[']);
    rope.dropLast();
    expect([rope.text, String.fromCharCode(rope.last)]).toEqual(['a', 'a']);
  });
});
