/** Stage 1 braces: templates, arguments, parser functions (not yet written). */
import type { Stage } from '../token.js';

export const parseBraces: Stage = () => {};
