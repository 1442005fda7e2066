/** Stage 7 external links (not yet written). */
import type { Stage } from './index.js';

export const parseExternalLinks: Stage = () => {};
