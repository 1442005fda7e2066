/**
 * The Wikimedia Enterprise response models this server answers in, as zod schemas: the Article
 * of `/v2/articles` (metadata and `article_body`, not the structured contents of
 * `src/schema/article.ts`), and the metadata models of `/v2/projects`, `/v2/codes`,
 * `/v2/languages`, `/v2/namespaces` and the structured snapshots. Field names and types follow
 * the Enterprise OpenAPI document (`components.schemas`: article, project, code, language,
 * namespace, snapshot, size, entity, license, …) and its data dictionary.
 *
 * The same schemas check `fields` and `filters` paths (model-fields.ts), clean stored envelope
 * metadata into the reply (a value of the wrong type is left out, unknown keys are dropped: the
 * reply holds the documented model and nothing else), and become the components of
 * /v2/openapi.json.
 */
import { z } from 'zod';
import { SizeSchema, VersionSchema } from '../../../index.js';

export const LanguageModel = z.object({
  identifier: z.string().meta({ description: 'Language code, e.g. "en"' }),
  name: z.string().optional().meta({ description: 'Name in English, e.g. "German"' }),
  alternate_name: z.string().optional().meta({ description: 'Name in the language itself, e.g. "Deutsch"' }),
  direction: z.enum(['ltr', 'rtl']).optional(),
});

export const CodeModel = z.object({
  identifier: z.string().meta({ description: 'Project type, e.g. "wiki" (Wikipedia), "wiktionary"' }),
  name: z.string().optional(),
  description: z.string().optional(),
});

export const ProjectModel = z.object({
  identifier: z.string().meta({ description: 'Project code (database name), e.g. "enwiki"' }),
  code: z.string().optional().meta({ description: 'Project type: an identifier of /v2/codes' }),
  name: z.string().optional(),
  url: z.string().optional().meta({ description: 'The wiki, e.g. "https://en.wikipedia.org"' }),
  in_language: LanguageModel.optional(),
});

export const NamespaceModel = z.object({
  identifier: z.number().int().meta({ description: 'MediaWiki namespace number; 0 is the main (article) namespace' }),
  name: z.string().optional(),
  description: z.string().optional(),
});

// Snapshot sizes are in megabytes, as the Enterprise API writes them; an article version's size
// (src/schema SizeSchema) is in bytes: two units, two descriptions.
export const SizeModel = z.object({
  value: z.number(),
  unit_text: z.string().meta({ description: '"MB": value is in megabytes (10^6 bytes), to three decimals, as the Enterprise API writes it; the exact length is the download\'s Content-Length' }),
});

export const SnapshotModel = z.object({
  identifier: z.string().meta({ description: '<project>_namespace_<number>, e.g. "enwiki_namespace_0"' }),
  version: z.string().optional().meta({ description: 'Changes when, and only when, the file changes (a hash of its bytes); also its ETag' }),
  date_modified: z.string().optional().meta({ description: 'When the file was built (ISO 8601)' }),
  is_part_of: ProjectModel.optional(),
  in_language: LanguageModel.optional(),
  namespace: NamespaceModel.optional(),
  size: SizeModel.optional().meta({ description: 'Size of the .tar.gz download' }),
  chunks: z
    .array(z.string())
    .optional()
    .meta({ description: 'The identifiers of its chunks (<identifier>_chunk_<n>), in order: /v2/snapshots/{identifier}/chunks/{chunk}; absent on a chunk' }),
});

const NamedLink = z.object({ name: z.string().optional(), url: z.string().optional() });

const EntityModel = z.object({
  identifier: z.string(),
  url: z.string().optional(),
  aspects: z.array(z.string()).optional(),
});

// The whole version of an envelope (editor, scores, size, maintenance tags …), as the Article keeps it.
const VersionModel = VersionSchema;

export const EnterpriseArticleModel = z.object({
  name: z.string(),
  identifier: z.number().int().optional().meta({ description: 'Page id in its project' }),
  abstract: z.string().optional(),
  url: z.string().optional(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
  date_previously_modified: z.string().optional(),
  version: VersionModel,
  previous_version: z.object({ identifier: z.number().int(), number_of_characters: z.number().int().optional() }).optional(),
  watchers_count: z.number().int().optional(),
  namespace: NamespaceModel,
  in_language: LanguageModel.optional(),
  is_part_of: ProjectModel,
  main_entity: EntityModel.optional(),
  additional_entities: z.array(EntityModel).optional(),
  categories: z.array(NamedLink).optional(),
  templates: z.array(NamedLink).optional(),
  redirects: z.array(NamedLink).optional(),
  protection: z.array(z.object({ type: z.string().optional(), level: z.string().optional(), expiry: z.string().optional() })).optional(),
  license: z.array(z.object({ identifier: z.string().optional(), name: z.string().optional(), url: z.string().optional() })).optional(),
  visibility: z.object({ text: z.boolean().optional(), user: z.boolean().optional(), comment: z.boolean().optional() }).optional(),
  event: z
    .object({ identifier: z.string().optional(), type: z.string().optional(), date_created: z.string().optional(), date_published: z.string().optional() })
    .optional(),
  image: z
    .object({
      content_url: z.string().optional(),
      width: z.number().int().optional(),
      height: z.number().int().optional(),
      alternative_text: z.string().optional(),
      caption: z.string().optional(),
    })
    .optional(),
  article_body: z
    .object({ html: z.string().optional(), wikitext: z.string().optional() })
    .meta({ description: 'The article as stored: Parsoid HTML and/or wikitext, whichever the source had' }),
});
export type EnterpriseArticle = z.infer<typeof EnterpriseArticleModel>;
export type Project = z.infer<typeof ProjectModel>;
export type Language = z.infer<typeof LanguageModel>;
export type Code = z.infer<typeof CodeModel>;
export type Namespace = z.infer<typeof NamespaceModel>;
export type Snapshot = z.infer<typeof SnapshotModel>;

/** Every model by the name of its OpenAPI component (prefixed: the structured Article has its own Project and Language). */
export const MODELS = {
  EnterpriseArticle: EnterpriseArticleModel,
  EnterpriseProject: ProjectModel,
  EnterpriseCode: CodeModel,
  EnterpriseLanguage: LanguageModel,
  EnterpriseNamespace: NamespaceModel,
  EnterpriseSnapshot: SnapshotModel,
} as const;
