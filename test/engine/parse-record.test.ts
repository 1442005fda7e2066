/**
 * `parseRecord` (src/engine/parse-record.ts, exported bound from src/index.ts): every kind of input
 * record reaches the front door its kind calls for and comes out as the Article that door's own
 * entry point makes: no caller needs to put a door and the back half together.
 */
import { describe, expect, it } from 'vitest';
import { parseRecord as parseRecordWith } from '../../src/engine/parse-record.js';
import { readWikitext } from '../../src/engine/wikitext/index.js';
import type { WikitextOptions } from '../../src/engine/wikitext/index.js';
import type { SiteinfoData } from '../../src/engine/wiki/siteinfo.js';
import { InputTooLargeError, InvalidInputError, parse, parseEnvelope, parseRecord, parseWikitext, wikitextRecordOf } from '../../src/index.js';

const HTML = '<html><head><title>Eta</title></head><body><p><b>Eta</b> is a letter.</p><h2>Use</h2><p>In physics.</p></body></html>';
const WIKITEXT = "{{Short description|Letter of the Greek alphabet}}\n'''Zeta''' is the sixth letter.\n\n== Use ==\nIn [[mathematics]].";
const ENVELOPE = {
  name: 'Zeta',
  identifier: 26,
  version: { identifier: 260 },
  namespace: { identifier: 0 },
  is_part_of: { identifier: 'enwiki', url: 'https://en.wikipedia.org' },
  in_language: { identifier: 'en' },
  description: 'Greek letter',
  license: [{ identifier: 'CC-BY-SA-4.0', name: 'CC BY-SA 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' }],
  article_body: { wikitext: WIKITEXT },
};

describe('parseRecord', () => {
  it('gives for each kind the Article of that kind\'s own entry point', () => {
    expect(parseRecord({ kind: 'html', html: HTML })).toEqual(parse(HTML));
    expect(parseRecord({ kind: 'envelope', envelope: ENVELOPE })).toEqual(parseEnvelope(ENVELOPE));
    const meta = { name: 'Zeta', project: 'enwiki' };
    expect(parseRecord({ kind: 'wikitext', wikitext: WIKITEXT, meta })).toEqual(parseWikitext(WIKITEXT, meta));
    expect(parseRecord({ kind: 'wikitext', wikitext: WIKITEXT })).toEqual(parseWikitext(WIKITEXT));
  });

  it('keeps what the HTML door is asked for (source hints) and the input limit of every door', () => {
    const hinted = parseRecord({ kind: 'html', html: HTML }, { sourcePositions: true });
    expect(hinted).toEqual(parse(HTML, { sourcePositions: true }));
    expect(JSON.stringify(hinted), 'hints present').toContain('"source"');
    const big = 'é'.repeat(600); // 1200 bytes
    expect(() => parseRecord({ kind: 'html', html: `<p>${big}</p>` }, { maxInputBytes: 1000 })).toThrow(InputTooLargeError);
    expect(() => parseRecord({ kind: 'wikitext', wikitext: big }, { maxInputBytes: 1000 })).toThrow(InputTooLargeError);
    expect(() => parseRecord({ kind: 'envelope', envelope: { article_body: { wikitext: big } } }, { maxInputBytes: 1000 })).toThrow(InputTooLargeError);
  });

  it('hands a wikitext record\'s wiki and input limit to the wikitext door, and asks for the door only then', () => {
    const calls: WikitextOptions[] = [];
    const door = () => (text: string, meta?: Parameters<typeof readWikitext>[1], options?: WikitextOptions) => {
      calls.push(options ?? {});
      return readWikitext(text, meta, options);
    };
    const site: SiteinfoData = { dbName: 'dewiki', namespaces: [], aliases: [], magicWords: [], interwiki: [] };
    parseRecordWith({ kind: 'wikitext', wikitext: 'Berlin ist eine Stadt.', meta: { name: 'Berlin', project: 'dewiki' } }, { wikitext: door, site, maxInputBytes: 5000 });
    expect(calls).toEqual([{ site, maxInputBytes: 5000 }]);
    parseRecordWith({ kind: 'envelope', envelope: { ...ENVELOPE, article_body: { wikitext: 'x' } } }, { wikitext: door, site });
    expect(calls[1]?.site, 'an envelope\'s wikitext too').toBe(site);
    parseRecordWith({ kind: 'html', html: HTML }, { wikitext: () => { throw new Error('the wikitext door was asked for'); } });
    expect(() => parseRecordWith({ kind: 'wikitext', wikitext: 'x' }), 'no door given').toThrow(InvalidInputError);
  });

  it('refuses a record of no known kind with a typed error', () => {
    expect(() => parseRecord({ kind: 'pdf' } as never)).toThrow(InvalidInputError);
  });
});

describe('wikitextRecordOf', () => {
  it('is the envelope\'s wikitext with the page\'s title, ids, namespace, wiki, language and url, and nothing else of the envelope', () => {
    const record = wikitextRecordOf({ ...ENVELOPE, date_modified: '2024-01-02T03:04:05Z', url: 'https://en.wikipedia.org/wiki/Zeta' });
    expect(record).toEqual({
      kind: 'wikitext',
      wikitext: WIKITEXT,
      meta: { name: 'Zeta', identifier: 26, revision: 260, dateModified: '2024-01-02T03:04:05Z', namespace: 0, project: 'enwiki', language: 'en', url: 'https://en.wikipedia.org/wiki/Zeta' },
    });
    const article = parseRecord(record!);
    expect(article.description, 'the wikitext\'s short description, not the envelope\'s').toBe('Letter of the Greek alphabet');
    expect(article.license, 'no envelope license').toBeUndefined();
    // The envelope's own door gives the same body: the one mapping serves both.
    const whole = parseEnvelope(ENVELOPE);
    expect(article.sections).toEqual(whole.sections);
    expect(article.references).toEqual(whole.references);
  });

  it('is undefined for an envelope without wikitext, and refuses what is not an envelope', () => {
    expect(wikitextRecordOf({ name: 'Eta', article_body: { html: HTML } })).toBeUndefined();
    expect(() => wikitextRecordOf('<p>x</p>')).toThrow(InvalidInputError);
    expect(() => wikitextRecordOf({ ...ENVELOPE, identifier: 'twenty-six' })).toThrow(/field "identifier"/);
  });
});
