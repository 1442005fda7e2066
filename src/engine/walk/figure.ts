/** A captioned image (Parsoid `typeof=mw:File`, `<figure>`, rendered `div.thumb`): an image part. */
import { figurePart, isFigure } from '../figure/html.js';
import type { Rule } from './types.js';

export const figure: Rule = {
  name: 'figure',
  breaks: true,
  test: (el) => isFigure(el),
  run(el, walk, _out, depth) {
    const part = figurePart(el, walk.ctx, depth);
    if (part !== undefined) walk.block(part, el);
  },
};
