/**
 * `[[File:Name.jpg|thumb|Caption]]` → an `image` part. The rendered image URL (a thumbnail on
 * upload.wikimedia.org) depends on where the file is stored and on the thumbnail size, neither of
 * which the wikitext says; `content_url` is therefore the wiki's `Special:FilePath/<Name>`, which
 * always resolves (redirects) to the original file, on the local wiki or on Commons.
 */
import type { Image, Part } from '../../schema/article.js';
import type { FileToken, ImageParameterToken } from '../wikitext/syntax/types.js';
import { ARTICLE_PATH } from '../grammar.js';
import { FILE_PATH } from '../wikitext/grammar.js';
import { titlePath } from '../wikitext/links.js';
import { render } from '../wikitext/render.js';
import type { Scope } from '../wikitext/scope.js';
import { keep } from '../wikitext/found.js';
import type { Found } from '../wikitext/found.js';

/** The URL of a file by name (without namespace), on the article's wiki. */
export function fileUrl(fileName: string, scope: Scope): string | undefined {
  const site = scope.site;
  if (site === undefined || fileName.trim().length === 0 || fileName.includes('\0') || /[[\]{}|<>]/.test(fileName)) return undefined;
  return `${site.origin}${ARTICLE_PATH}${FILE_PATH}${titlePath(fileName)}`;
}

/** The image part of a file; what its caption's reading finds goes to `found`. */
export function imagePart(file: FileToken, scope: Scope, found: Found[]): Part | undefined {
  const content_url = fileUrl(file.name.slice(file.name.indexOf(':') + 1), scope);
  if (content_url === undefined) return undefined;
  const image: Image = { content_url };
  const part: Part = { type: 'image' };
  for (const child of file.childNodes) {
    if (child.type !== 'image-parameter') continue;
    const p = child as ImageParameterToken;
    if (p.name === 'caption') {
      const r = render(scope, p.childNodes);
      keep(found, r.found);
      if (r.value.length > 0) {
        part.value = r.value;
        image.caption = r.value;
      }
      if (r.links.length > 0) part.links = r.links;
      if (r.citations.length > 0) part.citations = r.citations;
    } else if (p.name === 'alt') {
      const alt = render(scope, p.childNodes, { textOnly: true }).value;
      if (alt.length > 0) image.alternative_text = alt;
    } else if (p.name === 'width') {
      const width = Number.parseInt(String(p).trim(), 10);
      if (Number.isFinite(width) && width > 0 && width < 100_000) image.width = width;
    }
  }
  part.images = [image];
  return part;
}
