/** A gallery (`ul.gallery`, grammar/media.json): one image part per item. Before `list`: it is a `<ul>`. */
import { galleryParts, isGallery } from '../figure/html.js';
import type { Rule } from './types.js';

export const gallery: Rule = {
  name: 'gallery',
  breaks: true,
  test: (el) => isGallery(el),
  run(el, walk, _out, depth) {
    for (const part of galleryParts(el, walk.ctx, depth)) walk.block(part, el);
  },
};
