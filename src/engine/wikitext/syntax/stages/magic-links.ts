/** Stage 8 free external links, ISBN/RFC/PMID (not yet written). */
import type { Stage } from '../token.js';

export const parseMagicLinks: Stage = () => {};
