/**
 * The Wikimedia Enterprise response models this server claims to answer in, written by hand as
 * JSON Schema (draft-07) for ajv, independently of the server's own zod models.
 *
 * Source: the Wikimedia Enterprise OpenAPI document, "Wikimedia Enterprise API spec" 2.0.0,
 * `components.schemas` (error, language, code, project, namespace, size, snapshot, entity,
 * article, article_body, version, editor, maintenance_tags, scores, revertrisk, event, category,
 * license, protection, redirect, template, visibility), as published in
 * github.com/wikimedia-enterprise/wikimedia-enterprise, general/api-openapi-spec/main.yaml
 * (the API reference at https://enterprise.wikimedia.com/docs/api/ renders it). That repository
 * states no licence, so the document is not vendored: these are transcriptions of its models,
 * property for property and type for type.
 *
 * Where the OpenAPI document lags the published data dictionary
 * (https://enterprise.wikimedia.com/docs/data-dictionary/) and the structured snapshots reference
 * (https://enterprise.wikimedia.com/docs/snapshot/), the properties they add are added here too,
 * each marked `// data dictionary` or `// snapshot reference`: the article's date_created,
 * date_previously_modified, previous_version, watchers_count and image; version's
 * number_of_characters, size and has_tag_needs_citation; editor's is_admin, is_patroller and
 * has_advanced_rights; entity's aspects; event's date_published; the snapshot's date_modified.
 *
 * The structured-contents models (structured_content, part, image, thumbnail, link, citation,
 * table, reference) come from the newer revision of the same document that the API reference now
 * renders: the 2.0.0 main.yaml above still names `infobox` and `article_sections` and gives image
 * width and height as strings, the newer one names `infoboxes`, `sections`, `references`, `tables`
 * and `license`, with integer sizes. Its models were read from the per-model extraction at
 * github.com/api-evangelist/wikipedia, json-schema/wikimedia-enterprise-{structured-content,part,
 * image,thumbnail,link,citation,table,reference}-schema.json (commit 227392c), and written out here
 * property for property. Where this server's reply differs, the test names each exception; the
 * models here stay as the document has them.
 *
 * Deliberate tightenings: every object has `additionalProperties: false` (the document leaves
 * it open), so a reply carrying a property the models do not name fails the test; and a part's
 * `has_parts` holds parts (the document says only "objects").
 */

type Schema = Record<string, unknown>;

const string = { type: 'string' };
const integer = { type: 'integer' };
const number = { type: 'number' };
const boolean = { type: 'boolean' };
const strings = { type: 'array', items: string };
const object = (properties: Record<string, unknown>): Schema => ({ type: 'object', additionalProperties: false, properties });
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const list = (name: string) => ({ type: 'array', items: ref(name) });

export const ENTERPRISE_DEFINITIONS: Record<string, Schema> = {
  error: object({ message: string, status: integer }),
  language: object({ identifier: string, name: string, alternate_name: string, direction: string }),
  code: object({ identifier: string, name: string, description: string }),
  project: object({ identifier: string, code: string, name: string, url: string, in_language: ref('language') }),
  namespace: object({ identifier: number, name: string, description: string }),
  size: object({ unit_text: string, value: number }),
  snapshot: object({
    identifier: string,
    name: string,
    version: string,
    date_modified: string, // snapshot reference
    in_language: ref('language'),
    is_part_of: ref('project'),
    namespace: ref('namespace'),
    size: ref('size'),
    chunks: strings, // snapshot schema of the API document (api-evangelist/wikipedia json-schema/wikimedia-enterprise-snapshot-schema.json)
  }),
  entity: object({ identifier: string, url: string, aspects: strings /* data dictionary */ }),
  article_body: object({ html: string, wikitext: string }),
  editor: object({
    date_started: string,
    edit_count: integer,
    groups: strings,
    identifier: integer,
    is_anonymous: boolean,
    is_bot: boolean,
    name: string,
    is_admin: boolean, // data dictionary
    is_patroller: boolean, // data dictionary
    has_advanced_rights: boolean, // data dictionary
  }),
  maintenance_tags: object({ citation_needed_count: integer, pov_count: integer, clarification_needed_count: integer, update_count: integer }),
  revertrisk: object({ prediction: boolean, probability: object({ false: number, true: number }) }),
  scores: object({ revertrisk: ref('revertrisk') }),
  version: object({
    comment: string,
    editor: ref('editor'),
    identifier: integer,
    is_flagged_stable: boolean,
    is_minor_edit: boolean,
    noindex: boolean,
    scores: ref('scores'),
    maintenance_tags: ref('maintenance_tags'),
    tags: strings,
    number_of_characters: integer, // data dictionary
    size: ref('size'), // data dictionary
    has_tag_needs_citation: boolean, // data dictionary
  }),
  event: object({ identifier: string, type: string, date_created: string, date_published: string /* data dictionary */ }),
  category: object({ name: string, url: string }),
  license: object({ identifier: string, name: string, url: string }),
  protection: object({ expiry: string, level: string, type: string }),
  redirect: object({ name: string, url: string }),
  template: object({ name: string, url: string }),
  visibility: object({ comment: boolean, text: boolean, user: boolean }),
  // data dictionary: the article's main image (the document's `image` is the structured-contents part image).
  article_image: object({ content_url: string, width: integer, height: integer, alternative_text: string, caption: string }),
  // The structured-contents models (newer document revision, see above).
  thumbnail: object({ contentUrl: string, width: integer, height: integer }),
  image: object({
    content_url: string,
    identifier: string,
    name: string,
    width: integer,
    height: integer,
    thumbnail: ref('thumbnail'),
    caption: string,
    alternative_text: string,
    encoding_format: string,
    media_type: string,
  }),
  link: object({ url: string, text: string, images: list('image') }),
  citation: object({ identifier: string, group: string, text: string }),
  part: object({
    name: string,
    type: string,
    value: string,
    values: strings,
    has_parts: list('part'), // tightened: the document says `items: {type: object}`
    images: list('image'),
    links: list('link'),
    citations: list('citation'),
  }),
  // The document writes a table cell inline as `{value}`.
  table_cell: object({ value: string }),
  table: object({
    identifier: string,
    headers: { type: 'array', items: list('table_cell') },
    rows: { type: 'array', items: list('table_cell') },
    confidence_score: { type: 'number', minimum: 0, maximum: 1 },
  }),
  reference: object({
    identifier: string,
    group: string,
    type: string,
    metadata: { type: 'object' },
    text: object({ value: string, links: list('link') }),
    source: object({ value: string, links: list('link') }),
    parent_reference: string,
  }),
  structured_content: object({
    name: string,
    identifier: integer,
    abstract: string,
    description: string,
    url: string,
    date_created: string,
    date_modified: string,
    infoboxes: list('part'),
    sections: list('part'),
    main_entity: ref('entity'),
    additional_entities: list('entity'),
    image: ref('image'),
    version: ref('version'),
    is_part_of: ref('project'),
    in_language: ref('language'),
    // The document writes these three as a single `$ref`, not an array of them.
    license: ref('license'),
    references: ref('reference'),
    tables: ref('table'),
  }),
  article: object({
    event: ref('event'),
    // The document's part model: this server sends no has_parts (structured contents are /v2/structured-contents).
    has_parts: { type: 'array', items: { type: 'object' } },
    additional_entities: list('entity'),
    article_body: ref('article_body'),
    categories: list('category'),
    date_modified: string,
    identifier: integer,
    in_language: ref('language'),
    is_part_of: ref('project'),
    license: list('license'),
    main_entity: ref('entity'),
    name: string,
    abstract: string,
    namespace: ref('namespace'),
    protection: list('protection'),
    redirects: list('redirect'),
    templates: list('template'),
    url: string,
    version: ref('version'),
    visibility: ref('visibility'),
    date_created: string, // data dictionary
    date_previously_modified: string, // data dictionary
    previous_version: object({ identifier: integer, number_of_characters: integer }), // data dictionary
    watchers_count: integer, // data dictionary
    image: ref('article_image'), // data dictionary
  }),
};

/** A schema for one model or a list of them, resolving references among the definitions above. */
export function enterpriseSchema(model: string, shape: 'one' | 'list', definitions: Record<string, Schema> = ENTERPRISE_DEFINITIONS): Schema {
  if (definitions[model] === undefined) throw new Error(`no Enterprise model "${model}"`);
  return { definitions, ...(shape === 'one' ? ref(model) : list(model)) };
}

/** One place where this server's reply deliberately differs from a model: `property` of `model` is `schema` instead. */
export interface ModelException {
  model: string;
  property: string;
  schema: Schema;
  why: string;
}

/** The definitions with each exception applied; throws if an exception names no model or replaces nothing it should. */
export function withExceptions(exceptions: readonly ModelException[]): Record<string, Schema> {
  const definitions = structuredClone(ENTERPRISE_DEFINITIONS);
  for (const { model, property, schema } of exceptions) {
    const properties = definitions[model]?.properties as Record<string, unknown> | undefined;
    if (properties === undefined) throw new Error(`no Enterprise model "${model}"`);
    properties[property] = schema;
  }
  return definitions;
}

export const schemaHelpers = { string, integer, number, boolean, strings, object, ref, list };
