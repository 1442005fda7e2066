/**
 * The content of `<gallery>`: wikiparser-node's GalleryToken (src/multiLine/gallery.js), an
 * `ext-inner` named `gallery`, one child per line joined by line breaks: a GalleryImageToken
 * (`gallery-image`) for a line `File name|options` whose name is a valid title in the file
 * namespace, a `noinclude` token (wikiparser-node's CommentLineToken: no text) for any other line
 * with something in it, a text for an empty line. The extension tag's code makes it:
 * `new GalleryToken(inner, state)` for the tag's content (undefined when self-closed), with the
 * tokens made inside marked `inExt`.
 */
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { normalizeTitle } from '../title.js';
import { GalleryImageToken } from './file.js';
import { NoincludeToken } from './hidden.js';

const LINE = /^([^|]+)(?:\|(.*))?/u;
const BLANK_LINES = /\n\s*\n/gu;

export class GalleryToken extends Token {
  constructor(inner: string | undefined, state: ParseState) {
    super('ext-inner', state);
    this.name = 'gallery';
    if (inner === undefined) return;
    for (const line of inner.split('\n')) {
      const matches = LINE.exec(line);
      if (!matches) {
        this.append(line.trim() ? new NoincludeToken(line, state) : new AstText(line));
        continue;
      }
      const [, file, alt] = matches;
      const title = normalizeTitle(file!, 6, state.config, { decode: true });
      // The image reads the same title from a name without markers.
      if (title.valid) this.append(new GalleryImageToken(file!, alt, state, file!.includes('\0') ? undefined : title));
      else this.append(new NoincludeToken(line, state));
    }
  }

  override toString(): string {
    return this.childNodes.map(String).join('\n');
  }

  override text(): string {
    return this.childNodes
      .map((c) => c.text())
      .join('\n')
      .replace(BLANK_LINES, '\n');
  }
}
