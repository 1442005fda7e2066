/** Stage 10 language conversion (not yet written). */
import type { Stage } from './index.js';

export const parseConverter: Stage = () => {};
