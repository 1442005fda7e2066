/**
 * Wikimedia Enterprise article envelopes (snapshot and on-demand API objects): metadata plus
 * `article_body.html` / `article_body.wikitext`. The metadata is taken as delivered; only the
 * fields wikistruct outputs are read, each validated against the output schema.
 */
import { z } from 'zod';
import {
  EntitySchema,
  ImageSchema,
  LanguageSchema,
  LicenseSchema,
  NamespaceSchema,
  ProjectSchema,
  VersionSchema,
} from '../schema/article.js';
import type { Article } from '../schema/article.js';
import { InvalidInputError } from './errors.js';

export const EnvelopeSchema = z.looseObject({
  name: z.string().optional(),
  identifier: z.number().int().optional(),
  url: z.string().optional(),
  description: z.string().optional(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
  // Only the revision is required to be right; the rest of the version is kept where it fits (envelopeMeta).
  version: z.looseObject({ identifier: VersionSchema.shape.identifier }).optional(),
  is_part_of: z.looseObject(ProjectSchema.shape).optional(),
  in_language: z.looseObject(LanguageSchema.shape).optional(),
  namespace: z.looseObject(NamespaceSchema.shape).optional(),
  main_entity: z.looseObject(EntitySchema.shape).optional(),
  additional_entities: z.array(z.looseObject(EntitySchema.shape)).optional(),
  // Snapshots deliver an array; some on-demand payloads a single object.
  license: z.union([z.array(z.looseObject(LicenseSchema.shape)), z.looseObject(LicenseSchema.shape)]).optional(),
  image: z.looseObject(ImageSchema.shape).optional(),
  article_body: z.looseObject({ html: z.string().optional(), wikitext: z.string().optional() }),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** A value that looks like an envelope (has `article_body`), before validation. */
export function isEnvelopeLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'article_body' in value;
}

export function readEnvelope(value: unknown): Envelope {
  const result = EnvelopeSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.join('.') || '(root)';
    throw new InvalidInputError(`invalid article envelope: field "${path}": ${issue.message}`);
  }
  return result.data;
}

/**
 * The members of `value` that fit `schema`, each checked alone and unknown keys dropped: the
 * whole version of an envelope is kept (scores, editor, size …) even when one member of it is
 * malformed, instead of all of it refused or lost. An object member that does not fit whole is
 * cut the same way. `value` must fit the schema's required members (the envelope's check did).
 */
function whatFits(schema: z.ZodObject, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
    const parsed = member.safeParse(value[key]);
    if (parsed.success) {
      out[key] = parsed.data;
      continue;
    }
    const inner = member instanceof z.ZodOptional ? (member.unwrap() as z.ZodType) : member;
    const nested = value[key];
    if (inner instanceof z.ZodObject && typeof nested === 'object' && nested !== null && !Array.isArray(nested)) {
      out[key] = whatFits(inner, nested as Record<string, unknown>);
    }
  }
  return out;
}

type EnvelopeMeta = Omit<Article, 'sections' | 'infoboxes' | 'tables' | 'references' | 'abstract'>;

/** The envelope's metadata in output shape, keeping only schema fields (no extra keys leak through). */
export function envelopeMeta(env: Envelope): EnvelopeMeta {
  const out: EnvelopeMeta = {};
  if (env.name !== undefined) out.name = env.name;
  if (env.identifier !== undefined) out.identifier = env.identifier;
  if (env.url !== undefined) out.url = env.url;
  if (env.description !== undefined) out.description = env.description;
  if (env.date_created !== undefined) out.date_created = env.date_created;
  if (env.date_modified !== undefined) out.date_modified = env.date_modified;
  if (env.version !== undefined) out.version = whatFits(VersionSchema, env.version) as Article['version'];
  if (env.is_part_of !== undefined) out.is_part_of = ProjectSchema.parse(env.is_part_of);
  if (env.in_language !== undefined) out.in_language = LanguageSchema.parse(env.in_language);
  if (env.namespace !== undefined) out.namespace = NamespaceSchema.parse(env.namespace);
  if (env.main_entity !== undefined) out.main_entity = EntitySchema.parse(env.main_entity);
  if (env.additional_entities !== undefined) out.additional_entities = env.additional_entities.map((e) => EntitySchema.parse(e));
  if (env.license !== undefined) {
    const list = Array.isArray(env.license) ? env.license : [env.license];
    out.license = list.map((l) => LicenseSchema.parse(l));
  }
  if (env.image !== undefined) out.image = ImageSchema.parse(env.image);
  return out;
}
