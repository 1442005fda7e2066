/**
 * The shape of every file in `grammar/`, as zod schemas: the loader validates each file with its
 * schema once, the engine's tables are typed from them, and `npm run schema` writes their JSON
 * Schema to grammar/schema/<file>.schema.json (editors then check the files as they are typed).
 * Objects are strict, so a misspelt key ("clases") fails at load instead of being ignored.
 */
import { z } from 'zod';

/** Every rule says why it exists (test/engine/grammar.test.ts holds it to more than a word). */
const Why = z.string().min(1).describe('Why the rule exists: what it recognises, on which wiki, and why that is (or is not) content');

/** A file or a group of rules: `$comment` documents it, `$schema` points an editor at its schema. */
function group<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ $comment: z.string().optional(), ...shape });
}
function file<Shape extends z.ZodRawShape>(shape: Shape) {
  return group({ $schema: z.string().optional().describe('Path of this JSON Schema, for editors'), ...shape });
}

/** One way to recognise something: an exact tag name, class or typeof token, role, id or name. */
const Rule = z.strictObject({ match: z.string().min(1), why: Why }).meta({ id: 'Rule' });
const Rules = z.array(Rule);
const StringMap = z.record(z.string(), z.string());

export const NoiseSchema = file({
  tags: Rules.describe('Element names: the element and its subtree are not content'),
  classes: Rules.describe('Class tokens'),
  typeofs: Rules.describe('typeof tokens (Parsoid, Specs/HTML)'),
  roles: Rules.describe('Values of the role attribute'),
  ids: Rules.describe('Element ids'),
  hiddenStyles: z
    .array(
      Rule.extend({
        match: z
          .string()
          .regex(/^[a-z-]+:[^\s:;]+$/, 'one "property:value" declaration, lower case, without spaces')
          .describe('A declaration that hides the element, matched in its inline style with the spaces removed'),
      }),
    )
    .describe('Inline style declarations that hide an element'),
});

export const PronunciationSchema = file({
  classes: Rules.describe('Class tokens of pronunciation guides'),
  typeofs: Rules.describe('typeof tokens of pronunciation widgets'),
  linkPrefixes: Rules.describe('Link targets (after ./ or /wiki/) that mark a link as part of a pronunciation guide'),
});

export const SectionsSchema = file({
  boilerplate: z
    .record(z.string(), z.array(z.string().min(1)))
    .describe('Per language code ("*" for every language): section titles that are boilerplate, matched case-insensitively'),
});

export const InfoboxSchema = file({
  classes: Rules.describe('Class tokens that mark an infobox'),
  headerClasses: Rules.describe('Cells and blocks that open a new infobox section or give the box its title'),
  captionClasses: Rules.describe('Class tokens of image captions inside an infobox'),
  imageClasses: Rules.describe('Class tokens of image cells inside an infobox'),
  templateHints: Rules.describe('Parts of template names (lower case): of the templates one transclusion calls, the one whose name contains a hint names the infobox'),
  subheaderTags: Rules.describe('Element names: a full-width cell whose whole text is in one of them is a sub-header (a named section)'),
  iconMaxSize: z
    .strictObject({ pixels: z.number().int().positive(), why: Why })
    .describe('Images this small (width and height) inside a field are icons: their alt text joins the value'),
  iconSkipClasses: Rules.describe('Class tokens of an icon or its wrapper whose alt text is not read (it repeats the value or is chrome)'),
  iconSkipLinks: Rules.describe('Parts of link targets: an icon inside such a link is chrome, its alt text is not read'),
});

const Family = z.strictObject({
  host: z.string().regex(/\{lang\}/).describe('Host name with {lang} for the language subdomain'),
  code: z.string().regex(/\{lang\}/).describe('Project code with {lang} for the language ("-" written "_")'),
  caseSensitive: z.boolean().optional().describe('Titles keep the case of their first letter ($wgCapitalLinks = false)'),
  why: Why.optional(),
});
export const ProjectsSchema = file({
  families: z.array(Family).describe('Families of wikis, one per language'),
  special: z.array(z.strictObject({ host: z.string().min(1), code: z.string().min(1), why: Why.optional() })).describe('Single wikis'),
  languageOverrides: z
    .array(z.strictObject({ subdomain: z.string().min(1), language: z.string().min(1), why: Why }))
    .describe('Subdomains that are not a language code'),
});

export const CitationsSchema = file({
  templates: StringMap.describe('Citation template name (lower case, "_" as " ", no namespace) → Reference.type'),
  prefixes: z.array(z.string().min(1)).describe('A template whose name starts with one of these gives the rest of its name as the type'),
  coins: group({
    keys: StringMap.describe('OpenURL key → CS1 parameter name'),
    formats: StringMap.describe('rft_val_fmt → Reference.type, when there is no genre'),
    genres: StringMap.describe('rft.genre → Reference.type'),
  }),
  listWrappers: Rules.describe('Classes of the containers around reference lists (noise, but the lists inside are read)'),
  parameters: group({
    vocabulary: z.array(z.string().min(1)).describe("CS1's English parameter names: the names of Reference.metadata"),
    aliases: z
      .array(
        z.strictObject({
          match: z.string().min(1),
          templates: z.array(z.string().min(1)).optional().describe('Only for these templates; for every template when absent'),
          why: Why,
          map: StringMap.describe('Parameter name as written → vocabulary name; "#" stands for a person\'s number'),
        }),
      )
      .describe('Other names of the vocabulary, per language or template'),
    positional: z
      .array(
        z.strictObject({
          match: z.string().min(1).describe('Reference.type of the templates the rule applies to'),
          why: Why,
          names: z.string().min(1).describe('Name of the positional parameters but the last ("#" their number)'),
          final: z.string().min(1).describe('Name of the last positional parameter when there are two or more'),
        }),
      )
      .describe('How short-footnote templates read their positional parameters'),
  }),
  classes: z
    .strictObject({
      match: z.string().min(1).describe('The class token of CS1 cite elements'),
      why: Why,
      map: StringMap.describe('Second class token → Reference.type'),
    })
    .describe('The type a CS1 <cite class="citation web"> states'),
});

export const TablesSchema = file({
  dataClasses: Rules.describe('Class tokens of data tables'),
  layoutClasses: Rules.describe('Class tokens of layout tables'),
  layoutRoles: Rules.describe('role values of layout tables'),
  layoutHolders: Rules.describe('Class tokens of boxes (infoboxes, navigation) that make a table holding one in its own cells a layout table, looked through'),
  footerClasses: Rules.describe('Class tokens of rows that are the table\'s footer (Table.footers), besides the rows of <tfoot>'),
});

export const MediaSchema = file({
  figureClasses: Rules.describe('Class tokens of figures on skin-rendered pages'),
  galleryClasses: Rules.describe('Class tokens of galleries'),
  galleryItemClasses: Rules.describe('Class tokens of one gallery image'),
  captionClasses: Rules.describe('Class tokens of captions'),
});

const CodePoint = z.string().regex(/^U\+[0-9A-F]{4,6}$/, 'a code point written U+XXXX');
export const TitlesSchema = file({
  namespaces: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        alwaysCapitalized: z.boolean().optional(),
        noLengthLimit: z.boolean().optional(),
        why: z.string().min(1),
      }),
    )
    .describe('Canonical English namespace names'),
  aliases: z.array(z.strictObject({ alias: z.string().min(1), name: z.string().min(1), why: Why })).describe('Other names of a namespace'),
  ucfirstUnchanged: z
    .array(z.strictObject({ from: CodePoint, to: CodePoint, why: Why }))
    .describe('Ranges of first letters that MediaWiki does not upper-case'),
  dottedCapitalI: z.strictObject({ languages: z.array(z.string().min(1)), why: Why }).describe("Languages whose 'i' upper-cases to 'İ'"),
});

const Named = { name: z.string().min(1), description: z.string().min(1), why: Why };
export const MetadataSchema = file({
  codes: z.array(z.strictObject({ match: z.string().min(1), ...Named })).describe('Project types (the code of /v2/codes)'),
  languages: z
    .array(
      z.strictObject({
        match: z.string().min(1),
        name: z.string().min(1),
        alternate_name: z.string().min(1),
        direction: z.enum(['ltr', 'rtl']),
        why: Why,
      }),
    )
    .describe('Languages by code'),
  namespaces: z.array(z.strictObject({ match: z.number().int(), ...Named })).describe('Namespaces by number'),
});

/** How an inline template becomes text; see the `$comment` of `text` in grammar/wikitext.json. */
export const TextRuleSchema = z.strictObject({
  param: z.array(z.string()).optional(),
  join: z.array(z.string()).optional(),
  sep: z.string().optional(),
  all: z.string().optional(),
  literal: z.string().optional(),
  date: z.tuple([z.string(), z.string(), z.string()]).optional(),
  wrap: z.tuple([z.string(), z.string()]).optional(),
  block: z.boolean().optional(),
  list: z.boolean().optional().describe('The template renders a list: in an infobox field, each item (or each line of its parameter) is a list_item'),
  title: z.string().optional().describe('With list: the parameter shown above the items, which become its sub-items'),
}).meta({ id: 'TextRule' });
export type TextRule = z.infer<typeof TextRuleSchema>;

const RuledTemplate = Rule.extend({ rule: TextRuleSchema });

export const WikitextSchema = file({
  namespaces: group({ file: Rules, category: Rules }),
  imageKeywords: group({ rules: z.array(Rule.extend({ means: z.string().min(1) })) }),
  infobox: group({
    prefixes: Rules,
    names: Rules,
    titleParams: Rules,
    skipParams: Rules,
    imageParams: Rules,
    captionParams: Rules,
    rows: z
      .array(Rule.extend({ role: z.enum(['header', 'subheader', 'label', 'data']) }))
      .describe('Numbered row parameters of {{Infobox}} (matched without their number): headers open sections, data rows are fields named by their label'),
  }),
  shortDescription: Rules,
  noise: group({ names: Rules, prefixes: Rules }),
  referenceLists: group({ names: Rules, prefixes: Rules }),
  references: group({
    short: Rules,
    notes: z.array(Rule.extend({ group: z.string().describe('The reference group; empty for the group= parameter of the call') })),
    footnote: group({
      idPrefix: Rule,
      page: Rules,
      pages: Rules,
      location: Rules,
      parenthesized: Rules.describe('Short footnotes that put the year in parentheses'),
    }),
    anchorIds: Rules.describe("Templates writing a citation's CITEREF anchor in its ref= parameter"),
    anchorLinks: Rules.describe("Templates naming a full citation by authors and year (CS1's CITEREF anchor): the reference holding one has that citation as its source"),
  }),
  pronunciation: group({ rules: z.array(RuledTemplate), prefixes: Rules }),
  text: group({ rules: z.array(RuledTemplate), prefixes: z.array(RuledTemplate) }),
  modules: group({ rules: z.array(RuledTemplate) }),
  interwiki: group({ languages: Rules, projects: z.array(Rule.extend({ host: z.string().min(1) })) }),
  tags: group({
    literal: Rules.describe('Extension tags whose content is text as written'),
    math: Rules.describe('Extension tags whose content is TeX'),
    ref: Rules.describe('The footnote tag of the Cite extension'),
    content: Rules.describe('Extension tags whose content is wiki text'),
    gallery: Rules.describe('Gallery tags: each line a file'),
    blockHtml: Rules.describe('HTML block elements whose tags end a paragraph'),
    lineBreak: Rules.describe('HTML line break tags'),
    superscript: Rules.describe('HTML superscript tags'),
  }),
  magicWords: group({
    shown: Rules.describe('Parser functions that show their first argument (cased by name: lc, uc, lcfirst, ucfirst)'),
    pageName: Rules.describe('Variables that print the page title'),
    tag: Rules.describe('{{#tag:…}}'),
    invoke: Rules.describe('{{#invoke:…}}'),
  }),
  links: group({ filePath: Rule, defaultFamily: Rule }),
  citationText: group({
    author: Rules,
    first: Rules,
    editor: Rules,
    editorFirst: Rules,
    date: Rules,
    title: Rules,
    work: Rules,
    publisher: Rules,
  }),
  coordinates: group({
    positional: z
      .array(Rule.extend({ display: z.string().min(1).describe('The parameter saying where they show (inline, title)') }))
      .describe('Templates with the positional parameters of Module:Coordinates ({{coord|46|57|N|7|27|E}})'),
    named: z
      .array(
        Rule.extend({
          lat: z.string().min(1).describe('Parameter of the latitude'),
          lon: z.string().min(1).describe('Parameter of the longitude'),
          titleOnly: z.string().min(1).describe('Parameter that, without `inline`, shows them in the title bar only'),
          inline: z.string().min(1).describe('Parameter that shows them in the text'),
        }),
      )
      .describe('Templates with latitude and longitude in named parameters (dewiki {{Coordinate|NS=|EW=}})'),
  }),
});

/** Every grammar file by its name in grammar/ (without `.json`), in the order of their names. */
export const GRAMMAR_SCHEMAS = {
  citations: CitationsSchema,
  infobox: InfoboxSchema,
  media: MediaSchema,
  metadata: MetadataSchema,
  noise: NoiseSchema,
  projects: ProjectsSchema,
  pronunciation: PronunciationSchema,
  sections: SectionsSchema,
  tables: TablesSchema,
  titles: TitlesSchema,
  wikitext: WikitextSchema,
} as const;

export type GrammarName = keyof typeof GRAMMAR_SCHEMAS;
export type Grammar = { readonly [K in GrammarName]: z.infer<(typeof GRAMMAR_SCHEMAS)[K]> };
