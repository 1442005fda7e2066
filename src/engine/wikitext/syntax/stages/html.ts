/** Stage 2 HTML tags (not yet written). */
import type { Stage } from '../token.js';

export const parseHtml: Stage = () => {};
