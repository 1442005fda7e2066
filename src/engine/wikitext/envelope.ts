/**
 * The WikitextMeta of an article envelope (the same metadata `parse` reads from it), so that the
 * envelope's `article_body.wikitext` can be parsed with what the envelope says about the page.
 */
import { z } from 'zod';
import type { WikitextMeta } from './index.js';

const Id = z.object({ identifier: z.unknown() }).partial();

const EnvelopeMetaSchema = z.object({
  name: z.unknown(),
  identifier: z.unknown(),
  url: z.unknown(),
  date_modified: z.unknown(),
  version: Id,
  namespace: Id,
  is_part_of: Id,
  in_language: Id,
  article_body: z.object({ wikitext: z.unknown() }).partial(),
}).partial();

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** Fields of the wrong type are left out rather than refused: the meta is optional by design. */
export function wikitextMetaOf(envelope: unknown): WikitextMeta {
  const parsed = EnvelopeMetaSchema.safeParse(envelope);
  if (!parsed.success) return {};
  const e = parsed.data;
  const meta: WikitextMeta = {};
  const set = <K extends keyof WikitextMeta>(key: K, value: WikitextMeta[K] | undefined): void => {
    if (value !== undefined) meta[key] = value;
  };
  set('name', str(e.name));
  set('identifier', int(e.identifier));
  set('revision', int(e.version?.identifier));
  set('dateModified', str(e.date_modified));
  set('namespace', int(e.namespace?.identifier));
  set('project', str(e.is_part_of?.identifier));
  set('language', str(e.in_language?.identifier));
  set('url', str(e.url));
  return meta;
}

/** The envelope's wikitext, when it carries one. */
export function wikitextOf(envelope: unknown): string | undefined {
  const parsed = EnvelopeMetaSchema.safeParse(envelope);
  return parsed.success ? str(parsed.data.article_body?.wikitext) : undefined;
}
