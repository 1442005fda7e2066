/** Stage 9 lists (not yet written). */
import type { Stage } from './index.js';

export const parseList: Stage = () => {};
