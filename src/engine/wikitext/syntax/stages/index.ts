/**
 * wikiparser-node's stages, in its order (its src/index.js `parseOnce`): each reads a plain token's
 * `raw` and replaces what it recognises by markers of new tokens. One module per stage.
 */
import type { Stage } from '../token.js';
import { parseBraces } from './braces.js';
import { parseCommentAndExt } from './comment-and-ext.js';
import { parseConverter } from './converter.js';
import { parseExternalLinks } from './external-links.js';
import { parseHrAndDoubleUnderscore } from './hr-and-double-underscore.js';
import { parseHtml } from './html.js';
import { parseLinks } from './links.js';
import { parseList } from './list.js';
import { parseMagicLinks } from './magic-links.js';
import { parseQuotes } from './quotes.js';
import { parseTable } from './table.js';

export const STAGES: readonly Stage[] = [
  parseCommentAndExt, // 0
  parseBraces, // 1
  parseHtml, // 2
  parseTable, // 3
  parseHrAndDoubleUnderscore, // 4
  parseLinks, // 5
  parseQuotes, // 6
  parseExternalLinks, // 7
  parseMagicLinks, // 8
  parseList, // 9
  parseConverter, // 10
];
