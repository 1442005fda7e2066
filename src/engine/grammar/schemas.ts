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
  collapsed: group({
    tags: Rules.describe('Element names'),
    classes: Rules.describe('Class tokens of the element itself'),
    containers: Rules.describe('Class tokens of the element\'s parent'),
  }).describe('Elements whose hidden style (hiddenStyles) is a collapsed state, not hidden content: they are read'),
  linkPrefixes: Rules.describe('Link targets (after ./ or /wiki/): links to these pages are reader help or player chrome, dropped with their text'),
  actionLinks: Rules.describe('Values of a link\'s action= (or veaction=) query parameter: such a link into the wiki\'s interface (edit, history) is chrome, dropped with its text; a red link (redlink=1) is not'),
  audioLabels: Rules.describe('Words (lower case) an audio link shows in place of content ("listen"): such a link to a file of one of audioExtensions is dropped'),
  audioExtensions: Rules.describe('File name endings (lower case) of audio files, for audioLabels'),
});

export const PronunciationSchema = file({
  classes: Rules.describe('Class tokens of pronunciation guides'),
  typeofs: Rules.describe('typeof tokens of pronunciation widgets'),
  linkPrefixes: Rules.describe('Link targets (after ./ or /wiki/) that mark a link as part of a pronunciation guide'),
});

export const SectionsSchema = file({
  boilerplate: z
    .record(
      z.string(),
      z.strictObject({
        titles: z.array(z.string().min(1)).min(1).describe('Section titles, matched case-insensitively on the heading\'s plain text'),
        why: Why,
      }),
    )
    .describe('Per language code ("*" for every language): section titles that are boilerplate'),
  navigationBlocks: Rules.describe('Class tokens of navigation boxes: a section holding only these (and reference lists, external-link lists) is boilerplate whatever its title'),
  externalLinks: Rules.describe('rel tokens (Parsoid) and class tokens (skin pages) of external links: a section whose lists hold only such links is boilerplate whatever its title'),
  headingWrappers: Rules.describe('Class tokens of the blocks that wrap a heading on rendered pages'),
  shortDescription: Rules.describe('Class tokens of the element holding the page\'s short description'),
  notInAbstract: Rules.describe('Class tokens of lead blocks whose paragraphs are section content but not part of the abstract'),
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
  labelBullets: Rule.describe('Characters that decorate the start of a label (indented sub-rows); stripped'),
  labelEnds: Rule.describe('Characters that end a label (a colon in any script); stripped'),
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
    spanClass: Rule.describe('Class token of the COinS span, whose title holds the ContextObject'),
    fields: group({
      format: Rule.describe('Key of the metadata format (rft_val_fmt)'),
      genre: Rule.describe('Key of the genre'),
      id: Rule.describe('Key of identifiers (URLs, info: URIs)'),
      author: Rule.describe('Key of an author, repeated per author'),
      doi: Rule.describe('Prefix of a DOI given as an identifier'),
    }).describe('Keys read for something other than a CS1 parameter'),
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
  lists: group({
    classes: Rules.describe('Class tokens of a reference list (<ol>)'),
    typeofs: Rules.describe('typeof tokens of a reference list (Parsoid)'),
    wrapperGroups: z
      .array(Rule.extend({ group: z.string().min(1).describe('The reference group the wrapper\'s class names') }))
      .describe('Skin pages: class tokens of a wrapper around a list (up to three levels up) that name its group, where Parsoid\'s data-mw-group is missing'),
    groupMarker: Rule.extend({
      match: z.string().min(1).describe('A regular expression (u flag) on the text of an in-text marker; its first capture is the group'),
    }).describe('Skin pages: the marker of a reference in a named group ("[note 1]"), which names the group of the list its entry is in'),
  }).describe('Reference lists'),
  markers: group({
    typeofs: Rules.describe('typeof tokens of an in-text reference marker <sup> (Parsoid)'),
    classes: Rules.describe('Class tokens of an in-text reference marker <sup> (skin pages)'),
  }).describe('In-text reference markers: their text is a citation, never text'),
  entryTextClasses: Rules.describe('Class tokens of the element holding an entry\'s text (without its back-links)'),
  shortFootnoteAnchor: Rule.describe('Prefix of the ids CS1 gives a full citation, the target of a short footnote\'s link'),
  notCitations: z
    .array(Rule.extend({ languages: z.array(z.string().min(1)).min(1).describe('Wikis (by language code) where the template is not a citation') }))
    .describe('Templates named like a citation that are something else on some wikis (frwiki {{Citation}} is a quotation)'),
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
  typeofPrefixes: Rules.describe('typeof tokens of media elements, matched with their subtypes (mw:File matches mw:File/Thumb)'),
  descriptionLinkClasses: Rules.describe("Class tokens of the <a> around a media element that leads to the file's own description page"),
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
  document: group({
    head: group({
      pageId: Rule.describe('<meta property> of the page id'),
      modified: Rule.describe('<meta property> of the last edit time'),
      namespace: Rule.describe('<meta property> of the namespace number'),
      parsoid: Rules.describe('<meta property> names that only Parsoid HTML carries'),
      language: Rule.describe('<meta http-equiv> of the content language'),
      versionOf: Rule.describe('<link rel> of the page URL'),
      canonical: Rule.describe('<link rel> of the canonical URL'),
    }).describe('Names in <head>'),
    revisionInAbout: Rule.describe('Path segment before the revision id in <html about>'),
    config: group({
      marker: Rule.describe('The name of the page config object in a skin page\'s script'),
      pageId: Rule,
      revision: Rules.describe('Keys of the revision id, the first present wins'),
      title: Rule,
      namespaceName: Rule,
      language: Rule,
      namespace: Rule,
      wikidataItem: Rule,
    }).describe('mw.config keys (skin pages), scalars read by exact key'),
    jsonLd: group({
      scriptType: Rule.describe('type of the <script> holding the schema.org JSON-LD'),
      dateModified: Rule.describe('Key of the last edit time in it'),
    }),
    pageTitle: group({
      headingId: Rule.describe('id of the skin\'s <h1> holding the page\'s (display) title'),
      separators: Rules.describe('What separates the page title from the site name in a skin page\'s <title>, the last one counting'),
    }).describe('Where a skin page without its config script states its title'),
    articlePath: Rule.describe('The path articles are served under ($wgArticlePath without $1)'),
    contentRoot: group({
      textId: Rule.describe('id of the skin element around the article text'),
      outputClass: Rule.describe('Class token of the parser\'s output wrapper'),
      indicatorsClass: Rule.describe('Class token of the page-status indicators, which hold parser output of their own'),
    }).describe('Where the article is on a skin-rendered page (src/engine/parse.ts contentRoot)'),
    entityUrl: Rule.describe('URL prefix of a Wikidata item, for Article.main_entity.url'),
  }).describe('Where a page states what it is, read by src/engine/metadata.ts'),
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
  suffixes: z
    .record(z.string(), z.string())
    .optional()
    .describe('With param or join: text written after a parameter\'s value, by parameter ({{height|m=1.8}} → "1.8 m")'),
  units: z
    .array(z.string())
    .optional()
    .describe('Parameters holding a Module:Convert unit code, shown as `text.units` writes it ("km2" → "km^2") and as written when it has no entry'),
  pageName: z.boolean().optional().describe('When the parameters give nothing, the page title is shown ({{IMDb name|0000487}} names the article\'s subject)'),
  name: z
    .boolean()
    .optional()
    .describe('The template\'s own name, as written, is the text ({{XIXe siècle}}, {{2e}}), followed by what param or join give after sep ({{2e|régiment}} → "2e régiment")'),
  region: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .describe('An ISO 3166 region: when the parameters give nothing, the region\'s name in the article\'s language is the text (a country template, grammar `countries`)'),
  lowerCaseWith: z
    .string()
    .optional()
    .describe('With wrap: a parameter that, when set (lc=y), starts the wrap\'s text in lower case ({{As of|2024|lc=y}} → "as of 2024")'),
}).meta({ id: 'TextRule' });
export type TextRule = z.infer<typeof TextRuleSchema>;

const RuledTemplate = Rule.extend({ rule: TextRuleSchema });

export const WikitextSchema = file({
  namespaces: group({ file: Rules, category: Rules }),
  imageKeywords: group({ rules: z.array(Rule.extend({ means: z.string().min(1) })) }),
  infobox: group({
    prefixes: Rules.describe('Beginnings of infobox template names (lower case, as normalizeTemplateName gives them)'),
    suffixes: Rules.describe('Endings of infobox template names (kowiki "… 정보", plwiki "… infobox", trwiki "… bilgi kutusu")'),
    names: Rules.describe('Infobox template names'),
    hiddenMetadata: Rules.describe('Templates holding data for bots and catalogues that the wiki never shows (Persondata): never an infobox, never text'),
    notInfobox: group({
      names: Rules,
      prefixes: Rules,
    }).describe('Templates that are never an infobox even at the head of an article with many named parameters: hatnotes, navigation boxes, maintenance tags, coordinates, variant tables, image layouts'),
    sequences: z
      .array(
        z.strictObject({
          start: z.string().min(1).describe('Template opening the box'),
          end: z.string().min(1).describe('Template closing it'),
          why: Why,
        }),
      )
      .describe('Infoboxes written as a sequence of templates (frwiki {{Taxobox début}} … {{Taxobox fin}}): one infobox from start to end, each template\'s parameters its fields'),
    presentational: group({
      names: Rules,
      prefixes: Rules,
      suffixes: Rules,
    }).describe('Infobox parameters that say how the box looks, never what the article says (image files and their sizes, captions and alt texts, map and flag images, coordinate parts, colours, styles): never fields. Matched on the parameter name lower-cased, `_` and runs of spaces as one space'),
    titleParams: Rules,
    skipParams: Rules,
    imageParams: Rules,
    captionParams: Rules,
    rows: z
      .array(Rule.extend({ role: z.enum(['header', 'subheader', 'label', 'data']) }))
      .describe('Numbered row parameters of {{Infobox}} (matched without their number): headers open sections, data rows are fields named by their label'),
  }),
  shortDescription: Rules,
  containers: z
    .array(Rule.extend({ param: z.array(z.string().min(1)).min(1).describe('The parameters holding the content, in order of preference') }))
    .describe('Templates that only lay out content written in one of their parameters (columns, plain lists): alone on its line, the parameter is read as the page\'s own blocks (paragraphs, lists)'),
  tableTemplates: z
    .array(
      Rule.extend({
        end: z.array(z.string().min(1)).min(1).describe('Names of the template that closes the table'),
        header: z.string().describe('The header row the opening template prints, as table markup (`! a !! b`)'),
        caption: z.array(z.string().min(1)).describe('Parameters of the opening template holding the caption, matched in lower case'),
      }),
    )
    .describe('Pairs of templates that open and close a table whose rows are written between them: the rows are read as that table'),
  noise: group({ names: Rules, prefixes: Rules }),
  referenceLists: group({
    names: Rules,
    prefixes: Rules,
    grouped: Rules.describe('Beginnings of the names of lists that print a group of their own (notes), not the page\'s references: the definitions they hold are not read as references of the default group'),
  }),
  references: group({
    short: Rules,
    byName: Rules.describe('Templates citing references defined elsewhere by name, one per positional parameter, as `<ref name="…"/>` does ({{r|name}})'),
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
    noteId: Rule.describe("Prefix of the id of a footnote's entry (Reference.identifier)"),
    anchor: group({
      authors: Rules.describe('Parameters (CS1 names) of the surnames in the anchor, in order of preference; the 2nd to 4th numbered'),
      editors: Rules.describe('Parameters (CS1 names) of the surname the anchor takes when there is no author'),
    }).describe("How CS1 builds a full citation's CITEREF anchor"),
  }),
  pronunciation: group({ rules: z.array(RuledTemplate), prefixes: Rules }),
  text: group({
    rules: z.array(RuledTemplate),
    prefixes: z.array(RuledTemplate),
    patterns: z
      .array(
        RuledTemplate.extend({
          match: z
            .string()
            .min(1)
            .refine((source) => {
              try {
                new RegExp(source, 'u');
                return true;
              } catch {
                return false;
              }
            }, 'a regular expression (JavaScript, u flag)'),
        }),
      )
      .describe('Families of templates named by a pattern (a regular expression over the whole normalized name: frwiki {{2e}}, {{153e}}, {{XIXe siècle}}), tried after names and prefixes'),
    units: z
      .array(Rule.extend({ display: z.string().min(1).describe('How the unit reads, a superscript after a caret as the HTML door writes it') }))
      .describe('Module:Convert unit codes (the `units` parameters of text rules) and how they read'),
  }),
  modules: group({ rules: z.array(RuledTemplate) }),
  countries: group({
    codes: z
      .array(Rule.extend({ region: z.string().regex(/^[A-Z]{2}$/).describe('The ISO 3166-1 alpha-2 region the code names') }))
      .describe('Country templates named by a code ({{JPN}}, {{DEU}}): a flag and the country\'s name'),
    target: Rules.describe('Parameters of a country template naming what the flag stands for instead, shown in place of the country (dewiki Ziel=)'),
  }),
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
    shown: z
      .array(Rule.extend({ case: z.enum(['lower', 'upper', 'lowerFirst', 'upperFirst']).optional().describe('How the function changes the case of its argument') }))
      .describe('Parser functions that show their first argument'),
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
  tokens: group({
    silent: Rules.describe('Token types of wikiparser-node that are markup, never text'),
  }),
  languageConverter: group({
    languages: z
      .array(
        z.strictObject({
          match: z.string().min(1).describe('Content language of the wiki'),
          variants: z.array(z.string().min(1)).min(1).describe('Its variant codes, the language itself first'),
          why: Why,
        }),
      )
      .describe('Languages whose wikis convert between variants, and their variant codes (what -{…}- blocks name)'),
    hiddenFlags: Rules.describe('Flags of a -{…}- block that make it show nothing'),
    rawFlags: Rules.describe('Flags of a -{…}- block that show its content as written'),
  }),
});

export const MathSchema = file({
  elementClasses: Rules.describe('Class tokens of the wrapper of a rendered formula (inline or displayed)'),
  blockClasses: Rules.describe('Class tokens, on the wrapper or inside it, that mark a formula as displayed (on its own line)'),
  displayBlock: Rule.describe('The value of <math display> that marks a displayed formula'),
  texWrappers: Rules.describe('TeX style commands the extension wraps the alttext in ({\\displaystyle …}), taken off the TeX'),
});

export const LinksSchema = file({
  linkRels: Rules.describe('rel tokens (Parsoid, Specs/HTML) of <a> elements that are links of the content'),
  notLinkRels: Rules.describe('rel tokens of <a> elements that are not links of the content'),
  notLinkRelPrefixes: Rules.describe('Beginnings of rel tokens ("mw:PageProp/") of <a> elements that are not links of the content'),
  redLinkClasses: Rules.describe('Class tokens of a link to a page that does not exist (not emitted as a link)'),
});

export const ParsoidSchema = file({
  transclusionTypeofs: Rules.describe('typeof tokens of a transclusion\'s output, whose data-mw names the templates called'),
  categoryLinkRels: Rules.describe('rel tokens of the <link> elements that name a category of the page in their href'),
});

/** Every grammar file by its name in grammar/ (without `.json`), in the order of their names. */
export const GRAMMAR_SCHEMAS = {
  citations: CitationsSchema,
  infobox: InfoboxSchema,
  links: LinksSchema,
  math: MathSchema,
  media: MediaSchema,
  metadata: MetadataSchema,
  noise: NoiseSchema,
  parsoid: ParsoidSchema,
  projects: ProjectsSchema,
  pronunciation: PronunciationSchema,
  sections: SectionsSchema,
  tables: TablesSchema,
  titles: TitlesSchema,
  wikitext: WikitextSchema,
} as const;

export type GrammarName = keyof typeof GRAMMAR_SCHEMAS;
export type Grammar = { readonly [K in GrammarName]: z.infer<(typeof GRAMMAR_SCHEMAS)[K]> };
