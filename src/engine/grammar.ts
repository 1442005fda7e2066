/**
 * The declarative rules in `grammar/`, compiled once into lookup tables for the HTML path.
 * Supporting a new wiki means editing those JSON files, not this code; they are read and validated
 * by ./grammar/load.ts, the one loader.
 */
import { GRAMMAR } from './grammar/load.js';
import { currentLanguageCode, languageFallbacks } from './wiki/data.js';
import { memoized } from './memo.js';

const { noise, pronunciation, sections, infobox, projects, citations, tables, media, math, links, wikitext, parsoid, metadata } = GRAMMAR;

const set = (rules: readonly { match: string }[]): ReadonlySet<string> => new Set(rules.map((r) => r.match));

export const NOISE = {
  tags: set(noise.tags),
  classes: set(noise.classes),
  typeofs: set(noise.typeofs),
  roles: set(noise.roles),
  ids: set(noise.ids),
  isHiddenStyle: hiddenStyleTest(noise.hiddenStyles.map((r) => r.match)),
  collapsed: {
    tags: set(noise.collapsed.tags),
    classes: set(noise.collapsed.classes),
    containers: set(noise.collapsed.containers),
  },
  linkPrefixes: noise.linkPrefixes.map((r) => r.match),
  actionLinks: set(noise.actionLinks),
  audioLabels: set(noise.audioLabels),
  audioExtensions: noise.audioExtensions.map((r) => r.match),
};

/**
 * Whether an inline style holds one of `declarations` ("property:value", lower case, no spaces),
 * compared with the style's spaces removed. A cheap first test is derived from the declarations:
 * a style that holds one contains its value ("none" of "display:none") as written, in some case,
 * since a CSS keyword holds no space; most styles say nothing about visibility and stop there.
 */
export function hiddenStyleTest(declarations: readonly string[]): (style: string) => boolean {
  if (declarations.length === 0) return () => false;
  const values = declarations.map((d) => escapeRegExp(d.slice(d.indexOf(':') + 1)));
  const mayHold = new RegExp(values.join('|'), 'i');
  return (style) => {
    if (!mayHold.test(style)) return false;
    const compact = style.replace(/\s+/g, '').toLowerCase();
    return declarations.some((d) => compact.includes(d));
  };
}

/** A grammar value as a literal part of a pattern. */
export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const PRONUNCIATION = {
  classes: set(pronunciation.classes),
  typeofs: set(pronunciation.typeofs),
  linkPrefixes: pronunciation.linkPrefixes.map((r) => r.match),
};

export const INFOBOX = {
  classes: set(infobox.classes),
  headerClasses: set(infobox.headerClasses),
  captionClasses: set(infobox.captionClasses),
  imageClasses: set(infobox.imageClasses),
  templateHints: infobox.templateHints.map((r) => r.match),
  subheaderTags: set(infobox.subheaderTags),
  iconMaxSize: infobox.iconMaxSize.pixels,
  iconSkipClasses: set(infobox.iconSkipClasses),
  iconSkipLinks: infobox.iconSkipLinks.map((r) => r.match),
  labelBullets: infobox.labelBullets.match,
  labelEnds: infobox.labelEnds.match,
};

export const MEDIA = {
  figureClasses: set(media.figureClasses),
  galleryClasses: set(media.galleryClasses),
  galleryItemClasses: set(media.galleryItemClasses),
  captionClasses: set(media.captionClasses),
  /** typeof tokens of media, each alone or with a subtype after '/' (isMediaTypeof). */
  typeofs: set(media.typeofPrefixes),
  descriptionLinkClasses: set(media.descriptionLinkClasses),
};

/** Whether one typeof token marks media: `mw:File`, or `mw:File/Thumb` and the other variants. */
export function isMediaTypeof(token: string): boolean {
  const slash = token.indexOf('/');
  return MEDIA.typeofs.has(slash < 0 ? token : token.slice(0, slash));
}

/** typeof tokens of a transclusion's output (Parsoid), whose data-mw names the templates. */
export const TRANSCLUSION_TYPEOFS = set(parsoid.transclusionTypeofs);

/** rel tokens of the <link> elements that name a category of the page (Parsoid). */
export const CATEGORY_LINK_RELS = set(parsoid.categoryLinkRels);

/** The path articles are served under ("/wiki/"): skin pages' links and page URLs. */
export const ARTICLE_PATH = metadata.document.articlePath.match;

/** The names a page states its metadata under (grammar/metadata.json `document`). */
export const DOCUMENT = metadata.document;

/** Classes of the containers around reference lists (noise, but the lists inside are read). */
export const REFERENCE_LIST_WRAPPERS = set(citations.listWrappers);

export const REFERENCE_LISTS = {
  classes: set(citations.lists.classes),
  typeofs: set(citations.lists.typeofs),
  /** Skin pages: wrapper class → the group of the list inside. */
  wrapperGroups: new Map(citations.lists.wrapperGroups.map((r) => [r.match, r.group])),
  /** Skin pages: the text of a marker in a named group ("[note 1]"); capture 1 is the group. */
  groupMarker: new RegExp(citations.lists.groupMarker.match, 'u'),
  entryTextClasses: set(citations.entryTextClasses),
  shortFootnoteAnchor: citations.shortFootnoteAnchor.match,
};

/**
 * A section heading as looked up among boilerplate titles: lower case, single spaces. (Not a page
 * title: those are normalised by MediaWiki's rules in service/content/title.ts.)
 */
export function headingKey(heading: string): string {
  return heading.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Per language: its own boilerplate titles plus the universal ones ('*'), merged once at load. */
const boilerplate = new Map<string, ReadonlySet<string>>();
const allBoilerplate = new Set<string>();
const universal = (sections.boilerplate['*']?.titles ?? []).map(headingKey);
for (const [lang, { titles }] of Object.entries(sections.boilerplate)) {
  const normalized = titles.map(headingKey);
  boilerplate.set(lang, new Set([...universal, ...normalized]));
  for (const t of normalized) allBoilerplate.add(t);
}

const universalBoilerplate: ReadonlySet<string> = new Set(universal);

/**
 * Boilerplate titles for a language, plus the universal ones. A language without titles of its own
 * takes those of the first language of its MediaWiki fallback chain that has some (rue → uk,
 * be-tarask → be; English last), never the union of all languages: another language's appendix
 * title can be a content heading here (ru "Литература" was dropped by bg's list). Only a page of
 * unknown language gets every language's titles.
 */
export function boilerplateTitles(lang: string | undefined): ReadonlySet<string> {
  if (lang === undefined) return allBoilerplate;
  const own = boilerplate.get(lang);
  if (own !== undefined) return own;
  // A few map lookups, not cached: the language comes from input, so a cache would grow with it.
  const code = currentLanguageCode(lang);
  for (const c of [code, ...languageFallbacks(code).filter((f) => f !== 'en'), code.split('-')[0]!, 'en']) {
    const titles = boilerplate.get(c);
    if (titles !== undefined) return titles;
  }
  return universalBoilerplate;
}

export const PROJECTS = projects;

const normalizedNames = new Map<string, string>();

/**
 * Template name as matched against grammar: lower case, '_' as ' ', no namespace, trimmed.
 * Memoized (a page asks for the same few hundred names thousands of times); names are page
 * content, so the memo is emptied when it grows large.
 */
export function normalizeTemplateName(name: string): string {
  return memoized(normalizedNames, 10_000, name, normalizeName);
}
const normalizeName = (name: string): string => name.replace(/_/g, ' ').replace(/^[^:]*:/, '').replace(/\s+/g, ' ').trim().toLowerCase();

const citationTypes = new Map(Object.entries(citations.templates));

/** Per template name: the wikis (language codes) where it is not a citation. */
const notCitations = new Map(citations.notCitations.map((r) => [normalizeTemplateName(r.match), new Set(r.languages)]));

/**
 * Reference.type for a citation template, or undefined when the template is not a citation.
 * `language` is the wiki's (templates are per wiki): frwiki's {{Citation}} is a quotation.
 */
export function citationType(templateName: string, language?: string): string | undefined {
  const name = normalizeTemplateName(templateName);
  if (language !== undefined && notCitations.get(name)?.has(language) === true) return undefined;
  const known = citationTypes.get(name);
  if (known !== undefined) return known;
  for (const prefix of citations.prefixes) {
    if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length).replace(/\s+/g, '_');
  }
  return undefined;
}

/** In-text reference markers (grammar/citations.json `markers`). */
export const CITATION_MARKERS = {
  typeofs: set(citations.markers.typeofs),
  classes: set(citations.markers.classes),
};

export const COINS = {
  spanClass: citations.coins.spanClass.match,
  format: citations.coins.fields.format.match,
  genre: citations.coins.fields.genre.match,
  id: citations.coins.fields.id.match,
  author: citations.coins.fields.author.match,
  doiPrefix: citations.coins.fields.doi.match,
  keys: new Map(Object.entries(citations.coins.keys)),
  formats: new Map(Object.entries(citations.coins.formats)),
};

export const TABLES = {
  dataClasses: set(tables.dataClasses),
  layoutClasses: set(tables.layoutClasses),
  layoutRoles: set(tables.layoutRoles),
  layoutHolders: set(tables.layoutHolders),
  footerClasses: set(tables.footerClasses),
};

export const MATH = {
  elementClasses: set(math.elementClasses),
  blockClasses: set(math.blockClasses),
  displayBlock: math.displayBlock.match,
  /** `{\displaystyle ` and the like: the opening of a wrapper, matched at the start of the alttext. */
  wrapperOpenings: math.texWrappers.map((r) => `{\\${r.match}`),
};

export const LINKS = {
  linkRels: set(links.linkRels),
  notLinkRels: set(links.notLinkRels),
  notLinkRelPrefixes: links.notLinkRelPrefixes.map((r) => r.match),
  redLinkClasses: set(links.redLinkClasses),
};

/** Class lists of grammar/sections.json beside the boilerplate titles. */
export const SECTIONS = {
  headingWrappers: set(sections.headingWrappers),
  shortDescription: set(sections.shortDescription),
  notInAbstract: set(sections.notInAbstract),
  navigationBlocks: set(sections.navigationBlocks),
  externalLinks: set(sections.externalLinks),
};

const infoboxTemplateNames = set(wikitext.infobox.names);
const infoboxTemplatePrefixes = wikitext.infobox.prefixes.map((r) => r.match);
const infoboxTemplateSuffixes = wikitext.infobox.suffixes.map((r) => r.match);

/**
 * Whether a template renders an infobox (grammar/wikitext.json `infobox`: exact names, name
 * prefixes and suffixes), for both front doors: the HTML walk asks it of Parsoid's data-mw
 * template names, the wikitext walk of the templates it meets. `name` as written or as data-mw
 * gives it; normalised here.
 */
export function isInfoboxTemplate(name: string): boolean {
  const key = normalizeTemplateName(name);
  if (infoboxTemplateNames.has(key)) return true;
  for (const prefix of infoboxTemplatePrefixes) if (key.startsWith(prefix)) return true;
  // A subpage ("…/dernière année Infobox") is a helper template, never a box named by its ending.
  if (!key.includes('/')) for (const suffix of infoboxTemplateSuffixes) if (key.endsWith(suffix) && key.length > suffix.length) return true;
  return false;
}
