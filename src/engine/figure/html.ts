/**
 * Figures become `image` parts: the caption as `value`, the rendered image with its size.
 * Parsoid marks media with `typeof="mw:File/..."` (older HTML: `mw:Image/...`) and puts the caption
 * in <figcaption> (Specs/HTML §Media); rendered pages use `div.thumb` and `div.thumbcaption`.
 */
import type { Part } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { attr, findAll, findFirst, someToken, tagName } from '../dom.js';
import type { Context } from '../context.js';
import { inline } from '../inline.js';
import { imageOf } from '../image.js';
import { MEDIA } from '../grammar.js';
import { hasClassIn } from '../rules.js';
import { isMediaTypeof } from '../grammar.js';

/** A block that shows one captioned image. */
export function isFigure(el: Element): boolean {
  if (tagName(el) === 'figure') return true;
  if (tagName(el) === 'div' && hasClassIn(el, MEDIA.figureClasses)) return true;
  const t = attr(el, 'typeof');
  return tagName(el) !== 'span' && t !== undefined && someToken(t, isMediaTypeof);
}

/** A gallery: many images, each with its own caption. */
export function isGallery(el: Element): boolean {
  return (tagName(el) === 'ul' || tagName(el) === 'div') && hasClassIn(el, MEDIA.galleryClasses);
}

export function figurePart(figure: Element, ctx: Context, depth: number): Part | undefined {
  const img = findFirst(figure, (e) => tagName(e) === 'img');
  const captionEl = findFirst(
    figure,
    (e) => tagName(e) === 'figcaption' || hasClassIn(e, MEDIA.captionClasses),
  );
  const caption = captionEl === undefined ? { value: '', links: [], citations: [] } : inline(captionEl, ctx, {}, depth);
  const image = img === undefined ? undefined : imageOf(img, ctx, caption.value);
  if (image === undefined && caption.value.length === 0) return undefined;
  const part: Part = { type: 'image' };
  if (caption.value.length > 0) part.value = caption.value;
  if (image !== undefined) part.images = [image];
  if (caption.links.length > 0) part.links = caption.links;
  if (caption.citations.length > 0) part.citations = caption.citations;
  return part;
}

export function galleryParts(gallery: Element, ctx: Context, depth: number): Part[] {
  const boxes = findAll(gallery, (e) => tagName(e) === 'li' && hasClassIn(e, MEDIA.galleryItemClasses));
  const parts: Part[] = [];
  for (const box of boxes) {
    const part = figurePart(box, ctx, depth + 1);
    if (part !== undefined) parts.push(part);
  }
  return parts;
}
