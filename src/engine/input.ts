/**
 * The input checks of both front doors, made before any expensive work: `readInput` accepts what
 * `parse` is given — HTML text, an envelope object, or envelope JSON text — and returns the HTML
 * to parse plus the envelope, if any; `readWikitextInput` checks what `parseWikitext` is given.
 * Both refuse oversized input with the one size check, `checkInputSize`.
 */
import type { Envelope } from './envelope.js';
import { isEnvelopeLike, readEnvelope } from './envelope.js';
import { InputTooLargeError, InvalidInputError, NotHtmlError } from './errors.js';

export const DEFAULT_MAX_INPUT_BYTES = 32 * 1024 * 1024;

export interface Source {
  html: string;
  envelope?: Envelope;
}

export function readInput(input: unknown, maxBytes: number): Source {
  if (typeof input === 'string') return fromText(input, maxBytes);
  if (isEnvelopeLike(input)) return fromEnvelope(readEnvelope(input), maxBytes);
  const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
  throw new InvalidInputError(
    `expected an HTML string or an article envelope object with article_body.html, got ${kind}` +
      (typeof input === 'object' && input !== null ? ' without article_body' : ''),
  );
}

function fromText(text: string, maxBytes: number): Source {
  checkInputSize(text, maxBytes);
  const head = text.slice(0, 65536).trimStart();
  if (head.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isEnvelopeLike(value)) return fromEnvelope(readEnvelope(value), maxBytes);
  }
  return { html: checkHtml(unescapeJsonQuoted(text)) };
}

/** A validated envelope's HTML, checked; `parseEnvelope` sends envelopes with HTML here. */
export function fromEnvelope(envelope: Envelope, maxBytes: number): Source {
  const html = envelope.article_body.html;
  if (html === undefined) {
    throw new InvalidInputError('article envelope has no article_body.html (wikitext-only envelopes go to parseWikitext)');
  }
  checkInputSize(html, maxBytes);
  return { html: checkHtml(html), envelope };
}

/** The wikitext front door's input: a string within the size limit. */
export function readWikitextInput(input: unknown, maxBytes: number): string {
  if (typeof input !== 'string') {
    const kind = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    throw new InvalidInputError(`expected wikitext as a string, got ${kind}`);
  }
  checkInputSize(input, maxBytes);
  return input;
}

/** Refuses text over `maxBytes` UTF-8 bytes (InputTooLargeError), counting bytes only when it can matter. */
export function checkInputSize(text: string, maxBytes: number): void {
  // UTF-16 length ≤ UTF-8 bytes ≤ 3 × length: a string this long is over the limit whatever it holds...
  if (text.length > maxBytes) throw new InputTooLargeError(Buffer.byteLength(text, 'utf8'), maxBytes);
  // ...and one this short is under it; only in between are the bytes counted.
  if (text.length * 3 > maxBytes) {
    const size = Buffer.byteLength(text, 'utf8');
    if (size > maxBytes) throw new InputTooLargeError(size, maxBytes);
  }
}

const TAG = /<[a-zA-Z!?/]/;

function checkHtml(html: string): string {
  const head = html.slice(0, 65536);
  if (html.trim().length === 0) throw new NotHtmlError('the input is empty');
  if (head.includes('\u0000')) throw new NotHtmlError('it contains NUL bytes (binary data?)');
  if (!TAG.test(head)) throw new NotHtmlError('no HTML tag in the first 64 KiB');
  return html;
}

/**
 * Some exports store the page as the body of a JSON string with its quotes still escaped
 * (`<html prefix=\"dc: ...\"`). Attribute values would then keep the backslashes, so undo it.
 */
function unescapeJsonQuoted(html: string): string {
  const head = html.slice(0, 2048);
  if (!/<[a-zA-Z]+\s[^>]*=\\"/.test(head)) return html;
  return html.replace(/\\(["\\/])/g, '$1');
}
