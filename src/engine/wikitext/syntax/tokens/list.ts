/**
 * A list line's markers (`*`, `#`, `:`, `;` and the spaces after them) and a `:` after `;` on the
 * same line: wikiparser-node's ListToken and DdToken (src/nowiki/list.js, dd.js), one text each.
 */
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';

export const listToken = (state: ParseState, markers: string): SyntaxToken => new SyntaxToken('list', state, markers);
export const ddToken = (state: ParseState, markers: string): SyntaxToken => new SyntaxToken('dd', state, markers);
