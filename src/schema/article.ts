/**
 * The output contract. Every TypeScript type of the output is inferred from these zod schemas,
 * and `grammar/article.schema.json` is generated from them (`npm run schema`).
 *
 * Field names follow the Wikimedia Enterprise Structured Contents schema so that consumers of that
 * API can switch without remapping.
 */
import { z } from 'zod';

export const LinkSchema = z
  .object({
    url: z.string().describe('Absolute URL of the link target; an external link keeps its scheme (http or https), a protocol-relative one gets https'),
    text: z.string().optional().describe('The anchor text as displayed'),
    get images() {
      return z.array(ImageSchema).optional().describe('The images the link wraps (a linked icon or thumbnail)');
    },
  })
  .meta({ id: 'Link' });

export const ImageSchema = z
  .object({
    content_url: z.string().describe('Absolute https:// URL of the image file as rendered'),
    width: z.number().int().nonnegative().optional(),
    height: z.number().int().nonnegative().optional(),
    alternative_text: z.string().optional().describe("The image's alt text, wherever the page gives one"),
    caption: z.string().optional(),
  })
  .meta({ id: 'Image' });

export const CitationSchema = z
  .object({
    identifier: z.string().describe('The `identifier` of the Reference this marker points at'),
    text: z.string().describe('The marker as displayed, e.g. "[12]"'),
  })
  .meta({ id: 'Citation' });

export const TableReferenceSchema = z
  .object({
    identifier: z.string(),
    confidence_score: z.number().min(0).max(1),
  })
  .meta({ id: 'TableReference' });

export const PART_TYPES = [
  'section',
  'paragraph',
  'list',
  'list_item',
  'image',
  'infobox',
  'field',
  'table',
  /** A displayed formula: `value` is its TeX source, as written in the wiki's <math> (MathML `alttext`). */
  'formula',
] as const;
export const PartTypeSchema = z.enum(PART_TYPES);

export const PartSchema = z
  .object({
    name: z.string().optional().describe('Section heading, infobox template name or field label'),
    type: PartTypeSchema,
    value: z
      .string()
      .optional()
      .describe(
        'Clean plain text: no markup, no reference markers. A numeric superscript after a letter, digit or bracket is written after a caret ("km^2", "a^3"), ordinals stay glued ("19th"); an inline formula is its TeX. For a `formula` part: its TeX',
      ),
    get has_parts() {
      return z.array(PartSchema).optional();
    },
    links: z.array(LinkSchema).optional(),
    images: z.array(ImageSchema).optional(),
    citations: z.array(CitationSchema).optional(),
    table_references: z.array(TableReferenceSchema).optional(),
  })
  .meta({ id: 'Part' });

export const TableCellSchema = z
  .object({
    value: z.string().describe('The text shown in the cell: hidden sort keys excluded, a superscript after a caret ("6:7^7")'),
    links: z.array(LinkSchema).optional(),
    citations: z.array(CitationSchema).optional(),
    nested_table: z.string().optional().describe('The `identifier` of the table this cell holds (listed in `Article.tables` too)'),
  })
  .meta({ id: 'TableCell' });

export const TableSchema = z
  .object({
    identifier: z
      .string()
      .describe('Section path and position, unique within the article: "nominations.republican_party_table1"'),
    headers: z.array(z.array(TableCellSchema)),
    rows: z.array(z.array(TableCellSchema)),
    footers: z.array(z.array(TableCellSchema)).optional().describe('Rows of <tfoot> and rows marked "sortbottom" (totals)'),
    confidence_score: z.number().min(0).max(1),
  })
  .meta({ id: 'Table' });

export const ReferenceSchema = z
  .object({
    identifier: z.string(),
    group: z
      .string()
      .nullable()
      .describe('The reference group (`<ref group="note">`, {{efn}} → "lower-alpha"); null for the default group'),
    type: z.string(),
    metadata: z
      .record(z.string(), z.string())
      .describe(
        "Bibliographic fields under CS1's English parameter names (title, url, access-date, last, first, last2, …), whatever language the template was written in",
      ),
    template: z
      .object({
        name: z.string().describe('The citation template, e.g. "Lien web"'),
        parameters: z.record(z.string(), z.string()).describe('Its parameters as written in wikitext, by their own names'),
      })
      .optional()
      .describe('The citation template the metadata was read from; absent when it came from COinS or there was none'),
    text: z.object({ value: z.string(), links: z.array(LinkSchema).optional() }),
    source: z
      .object({ value: z.string(), links: z.array(LinkSchema).optional() })
      .optional()
      .describe('The full citation a short footnote ({{sfn}}, a Harvard link) names its source by, as text and links'),
    parent_reference: z
      .string()
      .optional()
      .describe('For a note that cites a reference (an {{efn}} with a <ref> inside): the identifier of that reference'),
  })
  .meta({ id: 'Reference' });

export const EntitySchema = z
  .object({
    identifier: z.string(),
    url: z.string().optional(),
    aspects: z.array(z.string()).optional(),
  })
  .meta({ id: 'Entity' });

export const EditorSchema = z
  .object({
    identifier: z.number().int().optional().describe('User id; absent for an anonymous edit'),
    name: z.string().optional(),
    edit_count: z.number().int().optional(),
    groups: z.array(z.string()).optional().describe('User groups, e.g. "autoconfirmed", "sysop"'),
    is_bot: z.boolean().optional(),
    is_anonymous: z.boolean().optional(),
    is_admin: z.boolean().optional(),
    is_patroller: z.boolean().optional(),
    has_advanced_rights: z.boolean().optional(),
    date_started: z.string().optional().describe('When the account was registered (ISO 8601)'),
  })
  .meta({ id: 'Editor' });

export const SizeSchema = z
  .object({ value: z.number(), unit_text: z.string().describe('"B": value is in bytes') })
  .meta({ id: 'Size' });

export const VersionSchema = z
  .object({
    identifier: z.number().int().describe('Revision id'),
    comment: z.string().optional(),
    tags: z.array(z.string()).optional(),
    is_minor_edit: z.boolean().optional(),
    is_flagged_stable: z.boolean().optional(),
    has_tag_needs_citation: z.boolean().optional(),
    noindex: z.boolean().optional(),
    number_of_characters: z.number().int().optional(),
    size: SizeSchema.optional(),
    editor: EditorSchema.optional(),
    // Model scores (revertrisk, referencerisk, referenceneed …) and maintenance counters change
    // with Wikimedia Enterprise's models: kept as delivered, as maps.
    scores: z.record(z.string(), z.unknown()).optional().describe('Model scores of the revision as delivered, e.g. revertrisk.probability'),
    maintenance_tags: z.record(z.string(), z.number()).optional().describe('Counts of maintenance templates, e.g. citation_needed_count'),
  })
  .meta({ id: 'Version' });

export const ProjectSchema = z
  .object({
    identifier: z.string().describe('Database name of the project, e.g. "enwiki"'),
    url: z.string().optional(),
  })
  .meta({ id: 'Project' });

export const LanguageSchema = z.object({ identifier: z.string() }).meta({ id: 'Language' });

export const NamespaceSchema = z
  .object({ identifier: z.number().int().describe('MediaWiki namespace number: 0 for articles; any other value marks a non-article page') })
  .meta({ id: 'Namespace' });

export const LicenseSchema = z
  .object({ name: z.string().optional(), identifier: z.string().optional(), url: z.string().optional() })
  .meta({ id: 'License' });

export const ArticleSchema = z
  .object({
    name: z.string().optional(),
    identifier: z.number().int().optional().describe('Page id'),
    url: z.string().optional(),
    version: VersionSchema.optional(),
    date_created: z.string().optional(),
    date_modified: z.string().optional(),
    is_part_of: ProjectSchema.optional(),
    in_language: LanguageSchema.optional(),
    namespace: NamespaceSchema.optional(),
    main_entity: EntitySchema.optional(),
    additional_entities: z.array(EntitySchema).optional(),
    license: z.array(LicenseSchema).optional(),
    image: ImageSchema.optional(),
    description: z.string().optional().describe("The article's short description"),
    abstract: z.string().optional().describe('Plain text of the lead, without pronunciation guides'),
    sections: z.array(PartSchema).describe('Section tree; the first section is the lead, named "abstract"'),
    infoboxes: z.array(PartSchema),
    tables: z.array(TableSchema),
    references: z.array(ReferenceSchema),
  })
  .meta({ id: 'Article' });

export type Link = z.infer<typeof LinkSchema>;
export type Image = z.infer<typeof ImageSchema>;
export type Citation = z.infer<typeof CitationSchema>;
export type TableReference = z.infer<typeof TableReferenceSchema>;
export type PartType = z.infer<typeof PartTypeSchema>;
export type Part = z.infer<typeof PartSchema>;
export type Table = z.infer<typeof TableSchema>;
export type TableCell = z.infer<typeof TableCellSchema>;
export type Reference = z.infer<typeof ReferenceSchema>;
export type Entity = z.infer<typeof EntitySchema>;
export type Version = z.infer<typeof VersionSchema>;
export type Project = z.infer<typeof ProjectSchema>;
export type Namespace = z.infer<typeof NamespaceSchema>;
export type License = z.infer<typeof LicenseSchema>;
export type Article = z.infer<typeof ArticleSchema>;
