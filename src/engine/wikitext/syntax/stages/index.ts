/**
 * wikiparser-node's stages, in its order (its src/index.js `parseOnce`): each reads a plain token's
 * `raw` and replaces what it recognises by markers of new tokens.
 */
import type { ParseState, Token } from '../token.js';

export type Stage = (token: Token, state: ParseState) => void;

const none: Stage = () => {};

export const STAGES: readonly Stage[] = [
  none, // 0 comments and extension tags (./comment-and-ext.ts)
  none, // 1 braces: templates, arguments, parser functions (./braces.ts)
  none, // 2 HTML tags (./html.ts)
  none, // 3 tables (./table.ts)
  none, // 4 hr, headings, behaviour switches (./hr-and-double-underscore.ts)
  none, // 5 links, files, categories (./links.ts)
  none, // 6 quotes (./quotes.ts)
  none, // 7 external links (./external-links.ts)
  none, // 8 free external links, ISBN/RFC/PMID (./magic-links.ts)
  none, // 9 lists (./list.ts)
  none, // 10 language conversion (./converter.ts)
];
