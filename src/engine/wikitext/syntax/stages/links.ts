/** Stage 5 links, files, categories (not yet written). */
import type { Stage } from '../token.js';

export const parseLinks: Stage = () => {};
