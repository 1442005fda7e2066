/** Stage 10 language conversion (not yet written). */
import type { Stage } from '../token.js';

export const parseConverter: Stage = () => {};
