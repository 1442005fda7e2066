import { describe, expect, it } from 'vitest';
import { InputTooLargeError, InvalidInputError, NotHtmlError, WikistructError, parse } from '../../src/index.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    expect(error, 'only typed errors escape').toBeInstanceOf(WikistructError);
    return (error as WikistructError).code;
  }
  return undefined;
};

describe('input checks (input.ts, errors.ts)', () => {
  it('refuses input over the size limit, counting UTF-8 bytes, with both numbers in the message', () => {
    const html = `<p>${'é'.repeat(600)}</p>`; // 600 characters, 1200 bytes
    expect(() => parse(html, { maxInputBytes: 1000 })).toThrow(InputTooLargeError);
    expect(() => parse(html, { maxInputBytes: 1000 })).toThrow(/1207 bytes, over the limit of 1000 bytes/);
    expect(parse(html, { maxInputBytes: 2000 }).abstract, 'under the limit it parses').toBe('é'.repeat(600));
  });

  it('applies the limit to the HTML inside an envelope too', () => {
    const envelope = { article_body: { html: `<p>${'x'.repeat(500)}</p>` } };
    expect(codeOf(() => parse(envelope, { maxInputBytes: 100 }))).toBe('INPUT_TOO_LARGE');
  });

  it('says why text is not HTML: empty, binary, no tag', () => {
    expect(() => parse('   \n')).toThrow(new NotHtmlError('the input is empty'));
    expect(() => parse('<p>a\u0000b</p>')).toThrow(/NUL bytes/);
    expect(() => parse('just some words, no markup')).toThrow(/no HTML tag/);
    expect(codeOf(() => parse('plain'))).toBe('NOT_HTML');
  });

  it('names what it got when the input is neither a string nor an envelope', () => {
    expect(() => parse(42 as never)).toThrow(/got number/);
    expect(() => parse(null as never)).toThrow(/got null/);
    expect(() => parse([] as never)).toThrow(/got an array/);
    expect(() => parse({ html: '<p>x</p>' })).toThrow(/without article_body/);
    expect(codeOf(() => parse({ html: '<p>x</p>' }))).toBe('INVALID_INPUT');
  });

  it('names the envelope field that has the wrong type', () => {
    expect(() => parse({ article_body: { html: '<p>x</p>' }, identifier: 'seven' })).toThrow(InvalidInputError);
    expect(() => parse({ article_body: { html: '<p>x</p>' }, identifier: 'seven' })).toThrow(/field "identifier"/);
    expect(() => parse({ article_body: { html: 5 } })).toThrow(/field "article_body.html"/);
    expect(() => parse({ article_body: { wikitext: "'''x'''" } })).toThrow(/no article_body.html/);
  });

  it('accepts envelope JSON text as well as the object', () => {
    const envelope = { name: 'T', article_body: { html: '<p>Text.</p>' } };
    expect(parse(JSON.stringify(envelope))).toEqual(parse(envelope));
    expect(parse(JSON.stringify(envelope)).name).toBe('T');
  });

  it('undoes JSON-escaped quotes of pages stored as a JSON string body', () => {
    const escaped = '<html><head><base href=\\"//en.wikipedia.org/wiki/\\"/></head><body><p>See <a href=\\"./Target\\">it</a>.</p></body></html>';
    const [paragraph] = parse(escaped).sections[0]!.has_parts!;
    expect(paragraph!.links, 'the href is read without backslashes').toEqual([{ url: 'https://en.wikipedia.org/wiki/Target', text: 'it' }]);
  });

  it('parses malformed HTML best-effort instead of failing', () => {
    const a = parse('<p>Unclosed <b>bold <i>both</p><p>Next</div></span>');
    expect(a.sections[0]!.has_parts!.map((p) => p.value)).toEqual(['Unclosed bold both', 'Next']);
  });
});
