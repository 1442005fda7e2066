/** `----` and more dashes: wikiparser-node's HrToken (src/nowiki/hr.js), one text. */
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';

export const hrToken = (state: ParseState, dashes: string): SyntaxToken => new SyntaxToken('hr', state, dashes);
