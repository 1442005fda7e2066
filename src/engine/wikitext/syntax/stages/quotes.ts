/** Stage 6 quotes (not yet written). */
import type { Stage } from '../token.js';

export const parseQuotes: Stage = () => {};
