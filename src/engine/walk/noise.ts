/** Not article content (grammar/noise.json): dropped with its subtree, without ending a paragraph. */
import { isNoise } from '../rules.js';
import type { Rule } from './types.js';

export const noise: Rule = {
  name: 'noise',
  breaks: false,
  test: (el) => isNoise(el),
  run: () => {},
};
