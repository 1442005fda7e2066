import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidTitleError,
  MAX_TITLE_BYTES,
  normalizeTitle,
  percentDecode,
  toDbKey,
  toPathSegment,
  toWikiPath,
  ucfirst,
} from '../../../src/service/content/title.js';

function invalid(raw: string, project = 'enwiki'): InvalidTitleError {
  try {
    normalizeTitle(raw, project);
  } catch (error) {
    expect(error, `${JSON.stringify(raw)} is refused with InvalidTitleError`).toBeInstanceOf(InvalidTitleError);
    return error as InvalidTitleError;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('normalizeTitle: spaces, underscores and percent-escapes', () => {
  it.each([
    ['Albert_Einstein', 'Albert Einstein'],
    ['Albert%20Einstein', 'Albert Einstein'],
    ['  Albert__ _Einstein_ ', 'Albert Einstein'],
    ['Albert\u00A0Einstein', 'Albert Einstein'],
    ['Albert\u3000Einstein', 'Albert Einstein'],
    ['\u200EAlbert Einstein\u200F', 'Albert Einstein'],
    ['Z%C3%BCrich', 'Zürich'],
    ['Zu\u0308rich', 'Zürich'],
    ['%E2%82%AC_sign', '€ sign'],
    ['AC%2FDC', 'AC/DC'],
    ['100%_pure', '100% pure'],
    ['Rock_%26_roll', 'Rock & roll'],
    [':Albert_Einstein', 'Albert Einstein'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeTitle(raw, 'enwiki'), `normalized form of ${JSON.stringify(raw)}`).toBe(expected);
  });

  it('refuses escapes that are not UTF-8 and names them', () => {
    const error = invalid('Foo%E0%A4');
    expect(error.message, 'the message quotes the bad escapes').toContain('"%E0%A4"');
    expect(error.code, 'stable code').toBe('INVALID_TITLE');
  });

  it('refuses titles that still hold an escape after decoding (double encoding)', () => {
    expect(invalid('Foo%2541bar').reason, 'reason mentions the leftover escape').toContain('%-escape');
  });
});

describe('normalizeTitle: first letter', () => {
  it.each([
    ['enwiki', 'albert einstein', 'Albert einstein'],
    ['dewiki', 'äpfel', 'Äpfel'],
    ['elwiki', 'αθήνα', 'Αθήνα'],
    ['enwiki', '\u{10428}x', '\u{10400}x'],
    ['trwiki', 'istanbul', 'İstanbul'],
    ['azwiki', 'ilham', 'İlham'],
    ['enwiki', 'istanbul', 'Istanbul'],
    ['dewiki', 'ßtraße', 'ßtraße'],
    ['kawiki', 'თბილისი', 'თბილისი'],
    ['enwiki', '1984', '1984'],
    ['enwiki', 'ı\u0301x', 'Íx'],
  ])('%s: %s → %s', (project, raw, expected) => {
    expect(normalizeTitle(raw, project), `first letter on ${project}`).toBe(expected);
  });

  it('keeps the case on wiktionaries (grammar/projects.json caseSensitive)', () => {
    expect(normalizeTitle('apple', 'enwiktionary'), 'enwiktionary keeps "apple"').toBe('apple');
    expect(normalizeTitle('pomme_de_terre', 'frwiktionary'), 'frwiktionary keeps the case').toBe('pomme de terre');
    expect(normalizeTitle('apple', 'enwiki'), 'enwiki capitalizes').toBe('Apple');
  });

  it('ucfirst leaves empty text alone and works on astral code points', () => {
    expect(ucfirst(''), 'empty').toBe('');
    expect(ucfirst('\u{1E922}x'), 'Adlam small letter → capital').toBe('\u{1E900}x');
  });
});

describe('normalizeTitle: namespaces', () => {
  it.each([
    ['enwiki', 'help:contents', 'Help:Contents'],
    ['enwiki', 'Help_:_contents', 'Help:Contents'],
    ['enwiki', 'HELP:Contents', 'Help:Contents'],
    ['enwiki', 'user_talk:jimbo', 'User talk:Jimbo'],
    ['enwiki', 'image:foo.jpg', 'File:Foo.jpg'],
    ['enwiki', 'category:physics', 'Category:Physics'],
    ['enwiktionary', 'talk:apple', 'Talk:apple'],
    ['enwiktionary', 'user:someone', 'User:Someone'],
    ['enwiki', 'wikipedia:about', 'Wikipedia:about'],
    ['enwiki', 'foo:bar', 'Foo:bar'],
  ])('%s: %s → %s', (project, raw, expected) => {
    expect(normalizeTitle(raw, project), `namespace handling of ${raw}`).toBe(expected);
  });

  it('refuses a namespace with nothing after it, or a second colon', () => {
    expect(invalid('Help:').reason, 'empty after namespace').toContain('nothing follows');
    expect(invalid('Talk::Foo').reason, 'second colon').toContain('second colon');
    expect(invalid('::Foo').reason, 'only one leading colon is stripped').toContain('starts with a colon');
  });
});

describe('normalizeTitle: illegal titles', () => {
  it.each(['Foo#bar', 'a<b', 'a>b', '[x]', 'a|b', '{x}', 'Foo%23bar', 'a\u0001b', 'a\u007Fb', 'a\nb'])(
    'refuses %j and names the character',
    (raw) => {
      expect(invalid(raw).reason, 'reason names the character').toMatch(/character ("."|U\+[0-9A-F]{4}) is not allowed/);
    },
  );

  it.each(['', '___', '%20', ':', '\u200E'])('refuses the empty title %j', (raw) => {
    expect(invalid(raw).reason, 'empty').toBe('the title is empty');
  });

  it.each(['.', '..', './a', '../a', 'a/./b', 'a/../b', 'a/.', 'a/..'])('refuses the relative path %j', (raw) => {
    expect(invalid(raw).reason, 'relative path').toContain('relative paths');
  });

  it('refuses unpaired surrogates but keeps astral letters', () => {
    expect(invalid('a\uD800b').reason, 'lone high surrogate').toContain('unpaired surrogate');
    expect(invalid('\uDC00').reason, 'lone low surrogate').toContain('unpaired surrogate');
    expect(normalizeTitle('\u{1F600} smile', 'enwiki'), 'a pair is fine').toBe('\u{1F600} smile');
  });

  it('refuses character references and signatures', () => {
    expect(invalid('Rock &amp; roll').reason, 'entity').toContain('character references');
    expect(invalid('Sig~~~').reason, 'tildes').toContain('~~~');
  });

  it(`limits titles to ${MAX_TITLE_BYTES} UTF-8 bytes, without the namespace`, () => {
    expect(normalizeTitle('a'.repeat(255), 'enwiki').length, '255 ASCII letters pass').toBe(255);
    expect(invalid('a'.repeat(256)).reason, '256 bytes fail').toContain('256 bytes');
    expect(invalid('é'.repeat(128)).reason, '128 two-byte letters are 256 bytes').toContain('256 bytes');
    expect(normalizeTitle(`Talk:${'a'.repeat(255)}`, 'enwiki'), 'namespace does not count').toHaveLength(260);
    expect(normalizeTitle(`Special:${'a'.repeat(300)}`, 'enwiki'), 'special pages have no limit').toHaveLength(308);
    // 'ɐ' (2 bytes) capitalizes to 'Ɐ' (3 bytes): the limit applies to the result.
    expect(invalid(`ɐ${'a'.repeat(253)}`).reason, 'checked after capitalization').toContain('256 bytes');
  });
});

describe('title forms for storage and URLs', () => {
  it('toDbKey uses underscores', () => {
    expect(toDbKey('Albert Einstein'), 'db key').toBe('Albert_Einstein');
  });
  it('toPathSegment escapes "/" so a title stays one REST path segment', () => {
    expect(toPathSegment('AC/DC'), 'slash escaped').toBe('AC%2FDC');
    expect(toPathSegment('Zürich?'), 'non-ASCII and ? escaped').toBe('Z%C3%BCrich%3F');
  });
  it('toWikiPath keeps the characters MediaWiki leaves readable', () => {
    expect(toWikiPath('AC/DC: Live, 1992'), 'slash, colon and comma kept').toBe('AC/DC:_Live,_1992');
    expect(toWikiPath('What? & 100%'), '? & % escaped').toBe('What%3F_%26_100%25');
  });
  it('percentDecode leaves a lone % alone', () => {
    expect(percentDecode('100%'), 'trailing %').toBe('100%');
    expect(percentDecode('%zz'), '% without hex').toBe('%zz');
  });
});

// Titles built from the characters that exercise the rules, plus arbitrary Unicode.
const titleChar = fc.constantFrom(
  'a', 'B', 'i', 'ı', 'ß', 'é', 'ɐ', 'ǆ', 'α', 'თ', '\u0301', '\u{10428}', ' ', '_', '\u00A0', '\u200E',
  '%', '2', '0', 'C', '3', 'A', ':', '.', '/', '#', '&', ';', '~', 'h', 'e', 'l', 'p', 'U', 's', 'r',
);
const titleLike = fc.oneof(
  fc.string({ unit: titleChar, maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.tuple(fc.constantFrom('help', 'User talk', 'image', 'Special', 'talk', 'foo'), fc.string({ unit: titleChar, maxLength: 20 })).map(
    ([ns, rest]) => `${ns}:${rest}`,
  ),
);
const project = fc.constantFrom('enwiki', 'enwiktionary', 'trwiki', 'kawiki');

function attempt(raw: string, p: string): string | InvalidTitleError {
  try {
    return normalizeTitle(raw, p);
  } catch (error) {
    if (error instanceof InvalidTitleError) return error;
    throw error;
  }
}

describe('normalizeTitle properties', () => {
  it('never throws anything but InvalidTitleError, and is idempotent', () => {
    fc.assert(
      fc.property(titleLike, project, (raw, p) => {
        const once = attempt(raw, p);
        if (once instanceof InvalidTitleError) return;
        expect(normalizeTitle(once, p), `normalize(normalize(${JSON.stringify(raw)}))`).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('treats underscores and spaces alike', () => {
    fc.assert(
      fc.property(titleLike, project, (raw, p) => {
        const spaced = attempt(raw.replace(/_/g, ' '), p);
        const underscored = attempt(raw.replace(/ /g, '_'), p);
        const describe = (r: string | InvalidTitleError): string => (typeof r === 'string' ? r : `error: ${r.reason}`);
        expect(describe(underscored), `${JSON.stringify(raw)} with spaces vs underscores`).toBe(describe(spaced));
      }),
      { numRuns: 3000 },
    );
  });

  it('yields no underscores, no doubled or outer spaces, and a db key without spaces', () => {
    fc.assert(
      fc.property(titleLike, project, (raw, p) => {
        const title = attempt(raw, p);
        if (title instanceof InvalidTitleError) return;
        expect(title.includes('_'), 'no underscore in the title form').toBe(false);
        expect(/ {2}|^ | $/.test(title), 'spaces single and inside').toBe(false);
        expect(toDbKey(title).includes(' '), 'no space in the db key').toBe(false);
        expect(normalizeTitle(toDbKey(title), p), 'db key normalizes back to the title').toBe(title);
      }),
      { numRuns: 2000 },
    );
  });
});
