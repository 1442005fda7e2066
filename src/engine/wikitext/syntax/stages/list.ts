/** Stage 9 lists (not yet written). */
import type { Stage } from '../token.js';

export const parseList: Stage = () => {};
