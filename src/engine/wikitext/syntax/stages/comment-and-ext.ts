/** Stage 0 comments and extension tags (not yet written). */
import type { Stage } from './index.js';

export const parseCommentAndExt: Stage = () => {};
