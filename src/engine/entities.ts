/**
 * HTML character references, decoded as the HTML door decodes them. The HTML door's tree builder
 * (tree-builder.ts) decodes its text with this function, as htmlparser2's tokenizer would: with the
 * `entities` package in its legacy mode, which reads every named reference of the HTML
 * standard, numeric ones (a bad code point as U+FFFD), and the legacy names without a semicolon
 * ("&copy 2001"). The wikitext door reads `&ndash;`, `&nbsp;`, `&#91;` written in wikitext with
 * the same decoder, so both doors give the same text for the same character.
 */
import { DecodingMode, decodeHTML } from 'entities';

export function decodeEntities(text: string): string {
  // Most text holds no reference: returned as is, without a pass of the decoder.
  return text.includes('&') ? decodeHTML(text, DecodingMode.Legacy) : text;
}
