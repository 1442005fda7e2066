/**
 * `parseEnvelope` (src/engine/parse-envelope.ts): the engine picks the front door, the envelope's
 * metadata stays authoritative, and the wikitext door is only asked for when it is needed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/engine/parse.js';
import { parseEnvelope as parseEnvelopeWith, wikitextRecordOf } from '../../src/engine/parse-envelope.js';
import { parseWikitext, readWikitext } from '../../src/engine/wikitext/index.js';
import { InputTooLargeError, InvalidInputError, parseEnvelope } from '../../src/index.js';

const LICENSE = [{ identifier: 'CC-BY-SA-4.0', name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' }];

const WIKITEXT = "{{Short description|Letter of the Greek alphabet}}\n'''Zeta''' is the sixth letter.\n\n== Use ==\nIn [[mathematics]].";

const envelope = (body: { html?: string; wikitext?: string }): Record<string, unknown> => ({
  name: 'Zeta',
  identifier: 26,
  version: { identifier: 260 },
  url: 'https://en.wikipedia.org/wiki/Zeta_(letter)',
  is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
  license: LICENSE,
  extra_field: 'not in the output',
  article_body: body,
});

const noDoor = (): never => {
  throw new Error('the wikitext door was asked for');
};

/** A production envelope's version (the Enterprise data dictionary's fields), values made up. */
const FULL_VERSION = {
  identifier: 1270870723,
  comment: 'copyedit',
  tags: ['mobile edit', 'visualeditor'],
  is_minor_edit: true,
  is_flagged_stable: false,
  has_tag_needs_citation: true,
  noindex: false,
  number_of_characters: 171402,
  size: { value: 214300, unit_text: 'B' },
  editor: { identifier: 42, name: 'Example', edit_count: 12345, groups: ['*', 'user', 'autoconfirmed'], is_bot: false, is_anonymous: false, is_admin: false, is_patroller: true, has_advanced_rights: true, date_started: '2010-01-02T03:04:05Z' },
  scores: { revertrisk: { prediction: false, probability: { false: 0.93, true: 0.07 } }, referencerisk: { reference_risk_score: 0.12 }, referenceneed: { reference_need_score: 0.4 } },
  maintenance_tags: { citation_needed_count: 2, pov_count: 0, clarification_needed_count: 1, update_count: 0 },
};

describe('the version of an envelope', () => {
  const html = '<html><body><p><b>Zeta</b> is a letter.</p></body></html>';

  it('is kept whole in the Article: editor, scores, size, maintenance tags …', () => {
    const article = parseEnvelopeWith({ ...envelope({ html }), version: FULL_VERSION }, { wikitext: noDoor });
    expect(article.version).toEqual(FULL_VERSION);
  });

  it('keeps what fits when a member does not, and drops unknown keys', () => {
    const version = { ...FULL_VERSION, is_minor_edit: 'yes', editor: { ...FULL_VERSION.editor, edit_count: 'many', shoe_size: 44 }, colour: 'blue' };
    const article = parseEnvelopeWith({ ...envelope({ html }), version }, { wikitext: noDoor });
    const { is_minor_edit: _minor, ...rest } = FULL_VERSION;
    const { edit_count: _count, ...editor } = FULL_VERSION.editor;
    expect(article.version).toEqual({ ...rest, editor });
  });

  it('still needs an integer revision', () => {
    expect(() => parseEnvelopeWith({ ...envelope({ html }), version: { ...FULL_VERSION, identifier: 'x' } }, { wikitext: noDoor })).toThrow(InvalidInputError);
  });
});

describe('parseEnvelope', () => {
  it('sends an envelope with HTML to the HTML door, never asking for the wikitext door, with the same Article as parse', () => {
    const env = envelope({ html: '<html><body><p><b>Zeta</b> is a letter.</p></body></html>', wikitext: WIKITEXT });
    const article = parseEnvelopeWith(env, { wikitext: noDoor });
    expect(article.abstract, 'text from the HTML, not the wikitext').toBe('Zeta is a letter.');
    expect(article.license, 'envelope license').toEqual(LICENSE);
    expect(article, 'what parse makes of the same envelope').toEqual(parse(env));
  });

  it('sends a wikitext-only envelope to the wikitext door, the envelope\'s metadata winning and in the one key order', () => {
    let asked = 0;
    const article = parseEnvelopeWith(envelope({ wikitext: WIKITEXT }), {
      wikitext: () => {
        asked++;
        return readWikitext;
      },
    });
    expect(asked, 'asked once').toBe(1);
    expect(article.abstract, 'text from the wikitext').toBe('Zeta is the sixth letter.');
    expect(article.description, 'the short description the wikitext gives (the envelope gives none)').toBe('Letter of the Greek alphabet');
    expect(article.url, 'the envelope url, not the one derived from the title').toBe('https://en.wikipedia.org/wiki/Zeta_(letter)');
    expect(article.version).toEqual({ identifier: 260 });
    expect(article.license).toEqual(LICENSE);
    expect(article.sections.map((s) => s.name)).toEqual(['abstract', 'Use']);
    expect(Object.keys(article)).toEqual([
      'name', 'identifier', 'abstract', 'description', 'url', 'version', 'is_part_of', 'in_language', 'license', 'sections', 'infoboxes', 'tables', 'references',
    ]);
    const withDescription = parseEnvelopeWith({ ...envelope({ wikitext: WIKITEXT }), description: 'Greek letter' }, { wikitext: () => readWikitext });
    expect(withDescription.description, 'the envelope description wins').toBe('Greek letter');
  });

  it('gives the wikitext door the envelope\'s title, ids, wiki, language and url', () => {
    const env = { ...envelope({ wikitext: '' }), date_modified: '2024-01-02T03:04:05Z', in_language: { identifier: 'en' } };
    expect(wikitextRecordOf(env)?.meta).toEqual({
      name: 'Zeta',
      identifier: 26,
      revision: 260,
      dateModified: '2024-01-02T03:04:05Z',
      project: 'enwiki',
      language: 'en',
      url: 'https://en.wikipedia.org/wiki/Zeta_(letter)',
    });
    // The body is the same as parseWikitext makes from that meta: the door is used, not imitated.
    const article = parseEnvelopeWith(envelope({ wikitext: WIKITEXT }), { wikitext: () => readWikitext });
    const direct = parseWikitext(WIKITEXT, wikitextRecordOf(envelope({ wikitext: WIKITEXT }))!.meta);
    expect(article.sections).toEqual(direct.sections);
    expect(article.references).toEqual(direct.references);
  });

  it('refuses a wikitext-only envelope without a wikitext door, and lets the door\'s own refusal through', () => {
    expect(() => parseEnvelopeWith(envelope({ wikitext: WIKITEXT }))).toThrow(InvalidInputError);
    class NotLoaded extends Error {}
    expect(() => parseEnvelopeWith(envelope({ wikitext: WIKITEXT }), { wikitext: () => { throw new NotLoaded('later'); } })).toThrow(NotLoaded);
  });

  it('refuses what is not a valid envelope with a typed error naming the problem', () => {
    expect(() => parseEnvelopeWith({ html: '<p>x</p>' })).toThrow(/object without article_body/);
    expect(() => parseEnvelopeWith('<p>x</p>')).toThrow(/got string/);
    expect(() => parseEnvelopeWith(null)).toThrow(InvalidInputError);
    expect(() => parseEnvelopeWith({ ...envelope({ wikitext: 'x' }), identifier: 'twenty-six' })).toThrow(/field "identifier"/);
    expect(() => parseEnvelopeWith({ article_body: {} }, { wikitext: noDoor }), 'neither body').toThrow(/no article_body.html/);
  });

  it('applies the size limit to either body, with the same error', () => {
    const big = 'é'.repeat(600); // 1200 bytes
    expect(() => parseEnvelopeWith(envelope({ wikitext: big }), { wikitext: () => readWikitext, maxInputBytes: 1000 })).toThrow(InputTooLargeError);
    expect(() => parseEnvelopeWith(envelope({ html: `<p>${big}</p>` }), { maxInputBytes: 1000 })).toThrow(InputTooLargeError);
  });

  it('is exported from the package with the wikitext door bound', () => {
    expect(parseEnvelope(envelope({ wikitext: WIKITEXT })).abstract).toBe('Zeta is the sixth letter.');
  });

  it('never loads the wikitext parser itself: the engine modules on the HTML path import the wikitext door for types only', () => {
    for (const file of ['src/engine/parse-envelope.ts', 'src/engine/parse-record.ts', 'src/engine/parse.ts', 'src/engine/article.ts', 'src/engine/input.ts']) {
      const code = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      const valueImports = [...code.matchAll(/^import (?!type )[^;]*from '([^']*wikitext[^']*)'/gm)].map((m) => m[1]);
      expect(valueImports, file).toEqual([]);
    }
  });
});
