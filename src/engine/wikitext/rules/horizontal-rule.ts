/** `----`: ends the paragraph before it; nothing of its own. */
import type { WikitextRule } from '../types.js';

export const horizontalRule: WikitextRule = {
  name: 'horizontal-rule',
  breaks: true,
  test: (n) => n.type === 'hr',
  run() {},
};
