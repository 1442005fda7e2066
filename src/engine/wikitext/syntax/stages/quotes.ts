/** Stage 6 quotes (not yet written). */
import type { Stage } from './index.js';

export const parseQuotes: Stage = () => {};
