/** Stage 3 tables (not yet written). */
import type { Stage } from './index.js';

export const parseTable: Stage = () => {};
