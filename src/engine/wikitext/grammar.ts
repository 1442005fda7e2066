/**
 * grammar/wikitext.json — what the wikitext path knows about templates, since it does not expand
 * them — compiled once into lookup tables (read and validated by ../grammar/load.ts).
 */
import { GRAMMAR } from '../grammar/load.js';
import type { TextRule } from '../grammar/schemas.js';
import { PROJECTS, isInfoboxTemplate, normalizeTemplateName } from '../grammar.js';
import { textPatternRule } from '../wiki/templates.js';
import { memoized } from '../memo.js';

export type { TextRule } from '../grammar/schemas.js';

const grammar = GRAMMAR.wikitext;
const names = (rules: readonly { match: string }[]): ReadonlySet<string> => new Set(rules.map((r) => r.match));

export const NAMESPACE_ALIASES = {
  file: grammar.namespaces.file.map((r) => r.match),
  category: grammar.namespaces.category.map((r) => r.match),
};
export const IMAGE_KEYWORDS = grammar.imageKeywords.rules.map((r) => [r.match, r.means] as const);

export const INFOBOX_TITLE_PARAMS = grammar.infobox.titleParams.map((r) => r.match);
export const INFOBOX_SKIP_PARAMS = names(grammar.infobox.skipParams);
export const INFOBOX_IMAGE_PARAMS = grammar.infobox.imageParams.map((r) => r.match);
export const INFOBOX_CAPTION_PARAMS = grammar.infobox.captionParams.map((r) => r.match);
export type InfoboxRowRole = 'header' | 'subheader' | 'label' | 'data';
/** Row parameters of {{Infobox}} by their name without the number ("header", "label" …). */
export const INFOBOX_ROWS: ReadonlyMap<string, InfoboxRowRole> = new Map(grammar.infobox.rows.map((r) => [r.match, r.role]));

/** Coordinate templates by name: positional parameters ({{coord}}) or named ones ({{Coordinate|NS=|EW=}}). */
export type CoordinateForm =
  | { form: 'positional'; display: string }
  | { form: 'named'; lat: string; lon: string; titleOnly: string; inline: string };
export const COORDINATES: ReadonlyMap<string, CoordinateForm> = new Map<string, CoordinateForm>([
  ...grammar.coordinates.positional.map((r) => [r.match, { form: 'positional', display: r.display }] as const),
  ...grammar.coordinates.named.map((r) => [r.match, { form: 'named', lat: r.lat, lon: r.lon, titleOnly: r.titleOnly, inline: r.inline }] as const),
]);

/** Extension and HTML tag names (lower case) by what the wikitext path does with them. */
export const TAGS = {
  literal: names(grammar.tags.literal),
  math: names(grammar.tags.math),
  ref: names(grammar.tags.ref),
  content: names(grammar.tags.content),
  gallery: names(grammar.tags.gallery),
  blockHtml: names(grammar.tags.blockHtml),
  lineBreak: names(grammar.tags.lineBreak),
  superscript: names(grammar.tags.superscript),
};

/** How a parser function of `MAGIC_WORDS.shown` changes the case of what it shows. */
export type Casing = 'lower' | 'upper' | 'lowerFirst' | 'upperFirst' | undefined;

/** Parser functions and variables (lower case) by what they show. */
export const MAGIC_WORDS = {
  /** Functions showing their first argument, with the casing they apply ({{lc:…}}, {{ucfirst:…}}). */
  shown: new Map<string, Casing>(grammar.magicWords.shown.map((r) => [r.match, r.case])),
  pageName: names(grammar.magicWords.pageName),
  tag: names(grammar.magicWords.tag),
  invoke: names(grammar.magicWords.invoke),
};

export const FILE_PATH = grammar.links.filePath.match;

/** Token types of the parser that are markup, never text (comments, categories, attributes …). */
export const SILENT_TOKENS = names(grammar.tokens.silent);
export const DEFAULT_FAMILY = grammar.links.defaultFamily.match;

const footnote = grammar.references.footnote;
/** How Module:Footnotes names and writes a short footnote. */
export const FOOTNOTE = {
  idPrefix: footnote.idPrefix.match,
  page: footnote.page.map((r) => r.match),
  pages: footnote.pages.map((r) => r.match),
  location: footnote.location.map((r) => r.match),
  parenthesized: names(footnote.parenthesized),
};

/** The id prefix of a footnote's entry ("cite_note-"), and the parameters of a CS1 anchor. */
export const NOTE_ID_PREFIX = grammar.references.noteId.match;
export const ANCHOR_PARAMS = {
  authors: grammar.references.anchor.authors.map((r) => r.match),
  editors: grammar.references.anchor.editors.map((r) => r.match),
};

const keys = (rules: readonly { match: string }[]): readonly string[] => rules.map((r) => r.match);
/** Metadata keys read, in order, to write a citation's text. */
export const CITATION_TEXT = {
  author: keys(grammar.citationText.author),
  first: keys(grammar.citationText.first),
  editor: keys(grammar.citationText.editor),
  editorFirst: keys(grammar.citationText.editorFirst),
  date: keys(grammar.citationText.date),
  title: keys(grammar.citationText.title),
  work: keys(grammar.citationText.work),
  publisher: keys(grammar.citationText.publisher),
};

/**
 * Hosts whose titles keep the case of their first letter: the families grammar/projects.json
 * marks `caseSensitive` (Wiktionary), one rule for both front doors.
 */
const caseSensitiveHosts = PROJECTS.families
  .filter((f) => f.caseSensitive === true)
  .map((f) => new RegExp(`^${f.host.replace(/[.]/g, '\\.').replace('{lang}', '[^.]+')}$`));

export function isCaseSensitiveHost(host: string): boolean {
  return caseSensitiveHosts.some((re) => re.test(host));
}

const shortDescription = names(grammar.shortDescription);
const containers = new Map(grammar.containers.map((r) => [r.match, r.param] as const));

const tableTemplates = new Map(grammar.tableTemplates.map((r) => [r.match, { ...r, end: new Set(r.end) }] as const));
export type TableTemplate = NonNullable<ReturnType<typeof tableTemplate>>;

/** What a template opening a table written between it and its closing template prints (grammar `tableTemplates`), when it is one. */
export function tableTemplate(rawName: string) {
  return tableTemplates.get(normalizeTemplateName(rawName));
}

/** The parameters holding a layout template's content ({{columns-list}}: grammar `containers`), when it is one. */
export function containerParams(rawName: string): readonly string[] | undefined {
  return containers.get(normalizeTemplateName(rawName));
}
const noiseNames = names(grammar.noise.names);
const referenceLists = names(grammar.referenceLists.names);
const referenceListPrefixes = grammar.referenceLists.prefixes.map((r) => r.match);
const groupedReferenceLists = grammar.referenceLists.grouped.map((r) => r.match);
const noisePrefixes = grammar.noise.prefixes.map((r) => r.match);
const shortFootnotes = names(grammar.references.short);
const footnotesByName = names(grammar.references.byName);
const anchorLinks = names(grammar.references.anchorLinks);
const anchorIds = names(grammar.references.anchorIds);

/** Whether a reference-list template prints a group of its own ({{notelist}}): its definitions are not the default group's. */
export function isGroupedReferenceList(rawName: string): boolean {
  return startsWithAny(normalizeTemplateName(rawName), groupedReferenceLists);
}

/** Whether a template writes a citation's anchor outright (`ref={{harvid|…}}`). */
export function isAnchorId(rawName: string): boolean {
  return anchorIds.has(normalizeTemplateName(rawName));
}

/** Whether a template links to a full citation by authors and year ({{harvnb|Smith|2001}}). */
export function isAnchorLink(rawName: string): boolean {
  return anchorLinks.has(normalizeTemplateName(rawName));
}

/**
 * "Template:Infobox_scientist" → "Infobox scientist": the name as the HTML door reads it from
 * data-mw. Memoized: asked of every reference's citation template, every sfn, every infobox.
 */
export function templateDisplayName(name: string): string {
  return memoized(displayNames, 10_000, name, displayNameOf);
}
const displayNames = new Map<string, string>();
const displayNameOf = (name: string): string => name.replace(/^[^:]*:/, '').replace(/_/g, ' ').trim();
const notes = new Map(grammar.references.notes.map((r) => [r.match, r.group]));
const pronunciation = new Map(grammar.pronunciation.rules.map((r) => [r.match, r.rule]));
const pronunciationPrefixes = grammar.pronunciation.prefixes.map((r) => r.match);
const textRules = new Map(grammar.text.rules.map((r) => [r.match, r.rule]));
const textPrefixes = grammar.text.prefixes.map((r) => [r.match, r.rule] as const);
const moduleRules = new Map(grammar.modules.rules.map((r) => [r.match, r.rule]));
const countryTargets = grammar.countries.target.map((r) => r.match);
/** Country templates by code ({{JPN}}): the target parameter if given, else the region's name. */
const countries = new Map<string, TemplateKind>(grammar.countries.codes.map((r) => [r.match, { kind: 'text', rule: { param: countryTargets, region: r.region } }]));

/** The text rule of a Lua module called by {{#invoke:…}}, e.g. "Module:Collapsible_list". */
export function moduleRule(moduleName: string): TextRule | undefined {
  return moduleRules.get(normalizeTemplateName(moduleName));
}

const extraLanguages = names(grammar.interwiki.languages);
const projectHosts = new Map(grammar.interwiki.projects.map((r) => [r.match, r.host]));
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const languageCodes = new Map<string, boolean>();

/** Whether a link prefix is a language code ("fr", "simple", "zh-yue"). Memoized. */
export function isLanguageCode(prefix: string): boolean {
  let known = languageCodes.get(prefix);
  if (known === undefined) {
    known = extraLanguages.has(prefix);
    if (!known && /^[a-z]{2,3}(-[a-z]{2,8})?$/.test(prefix)) {
      try {
        known = languageNames.of(prefix) !== undefined;
      } catch {
        known = false;
      }
    }
    if (languageCodes.size < 10_000) languageCodes.set(prefix, known);
  }
  return known;
}

/** Host of a sister-project link prefix ("wikt" → "{lang}.wiktionary.org"). */
export function projectHost(prefix: string): string | undefined {
  return projectHosts.get(prefix);
}

const startsWithAny = (name: string, prefixes: readonly string[]): boolean => prefixes.some((p) => name.startsWith(p));

/** What a template is, for the wikitext path. `name` is normalized (see normalizeTemplateName). */
export type TemplateKind =
  | { kind: 'infobox' }
  | { kind: 'description' }
  | { kind: 'noise' }
  | { kind: 'reference-list' }
  | { kind: 'short-footnote' }
  | { kind: 'footnote-by-name' }
  | { kind: 'note'; group: string }
  | { kind: 'pronunciation'; rule: TextRule }
  | { kind: 'text'; rule: TextRule }
  | { kind: 'unknown' };

const kinds = new Map<string, TemplateKind>();
const UNKNOWN: TemplateKind = { kind: 'unknown' };
/** A default for pronunciation templates matched by prefix: their first parameter, in brackets. */
const PRONUNCIATION_DEFAULT: TextRule = { param: ['1'], wrap: ['[', ']'] };

/** `name` normalized; `rawName` as written, for the matchers shared with the HTML door, which normalize it themselves. */
function classify(name: string, rawName: string): TemplateKind {
  if (shortDescription.has(name)) return { kind: 'description' };
  if (isInfoboxTemplate(rawName)) return { kind: 'infobox' };
  if (referenceLists.has(name) || startsWithAny(name, referenceListPrefixes)) return { kind: 'reference-list' };
  if (noiseNames.has(name)) return { kind: 'noise' };
  if (shortFootnotes.has(name)) return { kind: 'short-footnote' };
  if (footnotesByName.has(name)) return { kind: 'footnote-by-name' };
  const group = notes.get(name);
  if (group !== undefined) return { kind: 'note', group };
  const pron = pronunciation.get(name);
  if (pron !== undefined) return { kind: 'pronunciation', rule: pron };
  const text = textRules.get(name);
  if (text !== undefined) return { kind: 'text', rule: text };
  if (startsWithAny(name, pronunciationPrefixes)) return { kind: 'pronunciation', rule: PRONUNCIATION_DEFAULT };
  if (startsWithAny(name, noisePrefixes)) return { kind: 'noise' };
  for (const [prefix, rule] of textPrefixes) if (name.startsWith(prefix)) return { kind: 'text', rule };
  const pattern = textPatternRule(name);
  return pattern === undefined ? UNKNOWN : { kind: 'text', rule: pattern };
}

const COUNTRY_CODE = /^[A-Z]{3}$/;
const ENDS_IN_CODE = /[A-Z]{3}[\s_]*$/;

/**
 * A country template ({{JPN}}): a code written in capitals, so that a name of the same letters is
 * not one ({{VIe}}, frwiki's "6th"). Read before the memo, which is keyed by the name in lower case.
 */
function countryKind(rawName: string): TemplateKind | undefined {
  // Most names end otherwise: tested on the raw name before any string is made.
  if (!ENDS_IN_CODE.test(rawName)) return undefined;
  const shown = templateDisplayName(rawName);
  if (!COUNTRY_CODE.test(shown)) return undefined;
  return countries.get(shown.toLowerCase());
}

const kindsByRawName = new Map<string, TemplateKind>();

/**
 * Memoized: articles use a few hundred distinct templates, called thousands of times, and each
 * is asked several times (by the block rules, the renderer, the reference pass); keyed by the name
 * as written, so that a call known already costs one lookup, not the country test and two.
 */
export function templateKind(rawName: string): TemplateKind {
  return memoized(kindsByRawName, 10_000, rawName, kindOf);
}

function kindOf(rawName: string): TemplateKind {
  const country = countryKind(rawName);
  if (country !== undefined) return country;
  const name = normalizeTemplateName(rawName);
  let kind = kinds.get(name);
  if (kind === undefined) {
    kind = classify(name, rawName);
    if (kinds.size < 10_000) kinds.set(name, kind);
  }
  return kind;
}

/** Variant codes of the languages whose wikis convert (-{…}- blocks), by the language or any of its variants. */
export const CONVERTER_VARIANTS: ReadonlyMap<string, readonly string[]> = new Map(
  grammar.languageConverter.languages.flatMap((r) => [r.match, ...r.variants].map((code) => [code, r.variants] as const)),
);
