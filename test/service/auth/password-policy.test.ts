/**
 * The password policy's rules, each with the property it promises (fast-check), plus the
 * examples from issue #11: eight spaces, eight control characters, `aaaaaaaa`, the current password.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { commonPasswords, passwordPolicyViolation, SAME_AS_CURRENT } from '../../../src/service/auth/password-policy.js';

const INVISIBLE = 'must not consist only of spaces or control characters';
const REPEATED = 'must not be one character repeated';

/** Whitespace, C0/C1 controls and format characters (zero-width space, joiners, BOM, bidi marks). */
const invisibleChar = fc.constantFrom(
  ' ', '\t', '\n', '\r', '\v', '\f', '\u0001', '\u001f', '\u007f', '\u0085', '\u00a0', '\u1680', '\u2003',
  '\u2028', '\u3000', '\u200b', '\u200d', '\u2066', '\ufeff',
);
const visibleChar = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((c) => /^[\p{L}\p{N}\p{P}\p{S}]+$/u.test(c) && [...c].length === 1);

describe('password policy', () => {
  test('the examples of the issue are refused, each naming its rule', () => {
    expect(passwordPolicyViolation(' '.repeat(8), 'alice'), 'eight spaces').toBe(INVISIBLE);
    expect(passwordPolicyViolation('\u0001'.repeat(8), 'alice'), 'eight control characters').toBe(INVISIBLE);
    expect(passwordPolicyViolation('aaaaaaaa', 'alice'), 'one letter eight times').toBe(REPEATED);
    expect(passwordPolicyViolation('aAaAaAaA', 'alice'), 'case does not make it two characters').toBe(REPEATED);
    expect(passwordPolicyViolation('my old passphrase', 'alice', 'my old passphrase'), 'the current password').toBe(SAME_AS_CURRENT);
    expect(passwordPolicyViolation('My Old Passphrase', 'alice', 'my old passphrase'), 'a change of case is a new password').toBeUndefined();
  });

  test('property: nothing but invisible characters is refused, at any length the length rules allow', () => {
    fc.assert(
      fc.property(fc.array(invisibleChar, { minLength: 8, maxLength: 256 }), (chars) => {
        expect(passwordPolicyViolation(chars.join(''), 'alice')).toBe(INVISIBLE);
      }),
    );
  });

  test('property: one visible character repeated is refused', () => {
    fc.assert(
      fc.property(visibleChar, fc.integer({ min: 8, max: 256 }), (c, n) => {
        expect(passwordPolicyViolation(c.repeat(n), 'alice')).toBe(REPEATED);
      }),
    );
  });

  test('property: two distinct visible characters, uncommon, not the username nor the current password, pass', () => {
    const candidate = fc
      .tuple(visibleChar, visibleChar, fc.array(fc.oneof(visibleChar, invisibleChar), { minLength: 6, maxLength: 200 }))
      .filter(([a, b]) => a.toLowerCase() !== b.toLowerCase())
      .map(([a, b, rest]) => a + b + rest.join(''))
      .filter((p) => !commonPasswords().has(p.toLowerCase()));
    fc.assert(
      fc.property(candidate, (password) => {
        expect(passwordPolicyViolation(password, 'alice', 'the current one')).toBeUndefined();
      }),
    );
  });

  test('property: every refusal is one sentence that names a rule', () => {
    const text = fc.array(fc.oneof(visibleChar, invisibleChar, fc.constantFrom('a', 'A')), { maxLength: 300 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.oneof(text, fc.constant('alice')), (password, current) => {
        const violation = passwordPolicyViolation(password, 'alice', current);
        if (violation === undefined) return;
        expect(violation, 'one sentence, no full stop inside').not.toMatch(/\.\s/);
        expect(violation, 'starts with the rule').toMatch(/^(must|is) /);
      }),
    );
  });
});
