/** Stage 7 external links (not yet written). */
import type { Stage } from '../token.js';

export const parseExternalLinks: Stage = () => {};
