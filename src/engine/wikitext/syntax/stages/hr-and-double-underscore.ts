/** Stage 4 hr, headings, behaviour switches (not yet written). */
import type { Stage } from './index.js';

export const parseHrAndDoubleUnderscore: Stage = () => {};
