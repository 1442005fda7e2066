/**
 * An <img> as the Article's `Image`: its resolved URL, size, alternative text and the caption it
 * is shown with. Used inline (inline.ts), by figures and galleries (figure/html.ts) and by
 * infoboxes (infobox/html.ts); a module of its own so that figures, which read their captions
 * with inline.ts, and inline.ts do not import each other.
 */
import type { Image } from '../schema/article.js';
import type { Context } from './context.js';
import type { Element } from './dom.js';
import { attr } from './dom.js';
import { resolveHref } from './site.js';

export function imageOf(img: Element, ctx: Context, caption?: string): Image | undefined {
  const src = attr(img, 'src');
  if (src === undefined) return undefined;
  const url = resolveHref(src, ctx.site);
  if (url === undefined) return undefined;
  const image: Image = { content_url: url };
  const width = toInt(attr(img, 'width'));
  const height = toInt(attr(img, 'height'));
  if (width !== undefined) image.width = width;
  if (height !== undefined) image.height = height;
  const alt = attr(img, 'alt');
  if (alt !== undefined && alt.trim().length > 0) image.alternative_text = alt.trim();
  if (caption !== undefined && caption.length > 0) image.caption = caption;
  return image;
}

function toInt(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number.parseInt(s, 10);
  // The schema's integers are safe integers: width="99999999999999999999" is no size at all.
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
