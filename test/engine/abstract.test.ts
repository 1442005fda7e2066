/** The abstract's cut of pronunciation guides: same result as the simple quadratic rule, in linear time. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeCutParentheses } from '../../src/engine/cut.js';
import { CUT, clean } from '../../src/engine/inline.js';

/**
 * The rule as first written (and as the wiki's previews behave): take the first mark, cut the
 * innermost parenthesis around it up to its matching ')', else the mark alone; repeat. Quadratic
 * (it re-slices the text per mark), so it is only the oracle here.
 */
function oracle(text: string): string {
  if (!text.includes(CUT)) return text;
  let out = text;
  for (let at = out.indexOf(CUT); at >= 0; at = out.indexOf(CUT)) {
    const open = enclosingOpen(out, at);
    const close = open < 0 ? -1 : matchingClose(out, open);
    if (open >= 0 && close >= 0) out = out.slice(0, open) + out.slice(close + 1);
    else out = out.slice(0, at) + out.slice(at + 1);
  }
  return clean(out.replace(/\(\s*[,;]?\s*\)/g, '').replace(/\s+([,;])/g, '$1'));
}

function enclosingOpen(s: string, from: number): number {
  let depth = 0;
  for (let i = from - 1; i >= 0; i--) {
    if (s[i] === ')') depth++;
    else if (s[i] === '(') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function matchingClose(s: string, open: number): number {
  let depth = 0;
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Texts dense in what matters: parentheses (balanced or not), marks, separators, spaces. */
const text = fc.array(fc.constantFrom('(', ')', CUT, 'a', 'b c', ' ', ',', ';', ' (', ') '), { maxLength: 60 }).map((a) => a.join(''));

describe('removeCutParentheses', () => {
  it('cuts what the one-mark-at-a-time rule cuts, on any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(removeCutParentheses(t)).toBe(oracle(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('cuts nested, unclosed and stray cases as the rule says', () => {
    expect(removeCutParentheses(`A (b (${CUT}) c) d`), 'the innermost pair only').toBe('A (b c) d');
    expect(removeCutParentheses(`A (b ${CUT} (c) d) e`), 'the whole pair, nested groups inside included').toBe('A e');
    expect(removeCutParentheses(`A (b ${CUT} c`), 'never closed: the mark alone').toBe('A (b c');
    expect(removeCutParentheses(`A) ${CUT} (b`), 'a stray ) opens nothing').toBe('A) (b');
    expect(removeCutParentheses(`A (${CUT} ${CUT}) B (${CUT}) C`), 'two marks in one pair, then another pair').toBe('A B C');
  });

  it('handles a lead of thousands of guides in one pass', () => {
    // 8,000 guides in 1 MB took 13.5 s when each cut re-sliced the text; a count, not a timing, is asserted.
    const lead = `word (${CUT}) ${'filler text '.repeat(8)}`.repeat(8000);
    const out = removeCutParentheses(lead);
    expect(out.includes(CUT) || out.includes('('), 'every guide is cut').toBe(false);
    expect(out.split('word').length - 1).toBe(8000);
  });
});
