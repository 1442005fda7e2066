/**
 * HTML character references, decoded as the HTML door decodes them. The HTML door's text comes
 * from htmlparser2 (`parseDocument(html, { decodeEntities: true })`, tree-builder.ts), which
 * decodes text with the `entities` package in its legacy mode: every named reference of the HTML
 * standard, numeric ones (a bad code point as U+FFFD), and the legacy names without a semicolon
 * ("&copy 2001"). The wikitext door reads `&ndash;`, `&nbsp;`, `&#91;` written in wikitext with
 * the same decoder, so both doors give the same text for the same character.
 */
import { DecodingMode, decodeHTML } from 'entities';

export function decodeEntities(text: string): string {
  // Most text holds no reference: returned as is, without a pass of the decoder.
  return text.includes('&') ? decodeHTML(text, DecodingMode.Legacy) : text;
}
