/** Stage 4 hr, headings, behaviour switches (not yet written). */
import type { Stage } from '../token.js';

export const parseHrAndDoubleUnderscore: Stage = () => {};
