/** Stage 3 tables (not yet written). */
import type { Stage } from '../token.js';

export const parseTable: Stage = () => {};
