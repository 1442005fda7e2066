/**
 * COinS (ContextObjects in Spans): the `title` of a `span.Z3988` that citation templates emit,
 * an OpenURL ContextObject in key-encoded-value form — a URL query string, so `+` is a space and
 * `%XX` are the bytes of UTF-8 text. Read only when a reference carries no template data.
 */
import { COINS } from './grammar.js';
import { GRAMMAR } from './grammar/load.js';

const genres = new Map(Object.entries(GRAMMAR.citations.coins.genres).filter(([k]) => !k.startsWith('$')));

export interface Coins {
  /** From rft.genre, else rft_val_fmt when no genre is given; undefined for genre "unknown". */
  type?: string;
  /** CS1 parameter names (grammar/citations.json `coins.keys`). */
  metadata: Record<string, string>;
}

/**
 * URLSearchParams decodes exactly as the format is defined (application/x-www-form-urlencoded):
 * `+` as space, percent-decoded bytes read as UTF-8 with U+FFFD for a broken sequence, and it
 * never throws — a page's `Estat%C3stica` (a lead byte without its continuation) becomes
 * `Estat�stica`, not an undecoded string.
 */
export function readCoins(title: string): Coins {
  const metadata: Record<string, string> = {};
  let genre: string | undefined;
  let format: string | undefined;
  let authors = 0;
  for (const [key, raw] of new URLSearchParams(title)) {
    const value = raw.trim();
    if (value.length === 0) continue;
    if (key === COINS.format) format = value;
    else if (key === COINS.genre) genre = value;
    else if (key === COINS.id) {
      if (/^https?:\/\//.test(value)) metadata.url ??= value;
      else if (value.startsWith(COINS.doiPrefix)) metadata.doi ??= value.slice(COINS.doiPrefix.length);
    } else if (key === COINS.author) {
      authors++;
      metadata[authors === 1 ? 'author' : `author${authors}`] ??= value;
    } else {
      const name = COINS.keys.get(key);
      if (name !== undefined) metadata[name] ??= value;
    }
  }
  const type = genre !== undefined ? genres.get(genre) : format === undefined ? undefined : COINS.formats.get(format);
  return type === undefined ? { metadata } : { type, metadata };
}
