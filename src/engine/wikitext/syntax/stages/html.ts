/** Stage 2 HTML tags (not yet written). */
import type { Stage } from './index.js';

export const parseHtml: Stage = () => {};
