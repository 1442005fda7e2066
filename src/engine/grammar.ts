/**
 * Loads the declarative rules in `grammar/` and compiles them once into lookup tables.
 * Supporting a new wiki means editing those JSON files, not this code.
 */
import noise from '../../grammar/noise.json' with { type: 'json' };
import pronunciation from '../../grammar/pronunciation.json' with { type: 'json' };
import sections from '../../grammar/sections.json' with { type: 'json' };
import infobox from '../../grammar/infobox.json' with { type: 'json' };
import projects from '../../grammar/projects.json' with { type: 'json' };
import citations from '../../grammar/citations.json' with { type: 'json' };
import tables from '../../grammar/tables.json' with { type: 'json' };
import media from '../../grammar/media.json' with { type: 'json' };

interface Rule {
  match: string;
  why: string;
}

const set = (rules: readonly Rule[]): ReadonlySet<string> => new Set(rules.map((r) => r.match));

export const NOISE = {
  tags: set(noise.tags),
  classes: set(noise.classes),
  typeofs: set(noise.typeofs),
  roles: set(noise.roles),
  ids: set(noise.ids),
  hiddenStyles: noise.hiddenStyles.map((r) => r.match),
};

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
};

export const MEDIA = {
  figureClasses: set(media.figureClasses),
  galleryClasses: set(media.galleryClasses),
  galleryItemClasses: set(media.galleryItemClasses),
  captionClasses: set(media.captionClasses),
};

/** Classes of the containers around reference lists (noise, but the lists inside are read). */
export const REFERENCE_LIST_WRAPPERS = set(citations.listWrappers);

/** Heading text normalised for boilerplate lookup: lower case, single spaces, no edit brackets. */
export function normalizeTitle(title: string): string {
  return title.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Per language: its own boilerplate titles plus the universal ones ('*'), merged once at load. */
const boilerplate = new Map<string, ReadonlySet<string>>();
const allBoilerplate = new Set<string>();
const universal = (sections.boilerplate['*'] ?? []).map(normalizeTitle);
for (const [lang, titles] of Object.entries(sections.boilerplate)) {
  const normalized = titles.map(normalizeTitle);
  boilerplate.set(lang, new Set([...universal, ...normalized]));
  for (const t of normalized) allBoilerplate.add(t);
}

/** Boilerplate titles for a language, plus the universal ones; every language's when unknown. */
export function boilerplateTitles(lang: string | undefined): ReadonlySet<string> {
  return (lang === undefined ? undefined : boilerplate.get(lang)) ?? allBoilerplate;
}

export const PROJECTS = projects;

/** Template name as matched against grammar: lower case, '_' as ' ', no namespace, trimmed. */
export function normalizeTemplateName(name: string): string {
  return name.replace(/_/g, ' ').replace(/^[^:]*:/, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

const citationTypes = new Map(Object.entries(citations.templates));

/** Reference.type for a citation template, or undefined when the template is not a citation. */
export function citationType(templateName: string): string | undefined {
  const name = normalizeTemplateName(templateName);
  const known = citationTypes.get(name);
  if (known !== undefined) return known;
  for (const prefix of citations.prefixes) {
    if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length).replace(/\s+/g, '_');
  }
  return undefined;
}

export const COINS = {
  keys: new Map(Object.entries(citations.coins.keys)),
  formats: new Map(Object.entries(citations.coins.formats)),
};

export const TABLES = {
  dataClasses: set(tables.dataClasses),
  layoutClasses: set(tables.layoutClasses),
  layoutRoles: set(tables.layoutRoles),
};
