/**
 * Names and descriptions of project types, languages and namespaces (grammar/metadata.json), the
 * Enterprise project model of a project code, and the bundled catalog: every open, public
 * Wikimedia wiki and the languages they are written in (grammar/generated/wiki-catalog.json,
 * written by scripts/generate-wiki-data.ts from ../shared/data).
 *
 * A wiki's family, host and language are the engine's per-wiki facts (`wikiData`): `enwiki` →
 * code `wiki`, url `https://en.wikipedia.org`, language `en`; its name is its sitename
 * ("Wikipedia", "Wikipédia", "Викисловарь"). A code the facts do not list but grammar/projects.json
 * places (`xxwiki`) is still a project: it can be fetched on demand.
 */
import catalogFile from '../../../../grammar/generated/wiki-catalog.json' with { type: 'json' };
import { GRAMMAR, familyOf, hostOfProject, languageDir, projectOfHost, wikiData } from '../../../index.js';
import type { Code, Language, Namespace, Project } from './models.js';

const { metadata, projects: PROJECTS } = GRAMMAR;

/** The bundled catalog as loaded; part of what the engine version hashes (engine-version.ts). */
export const CATALOG_SOURCE: Readonly<Record<string, unknown>> = { 'generated/wiki-catalog': catalogFile };
const SITENAMES: Readonly<Record<string, string>> = catalogFile.projects;
const AUTONYMS: Readonly<Record<string, string>> = catalogFile.autonyms;

const NAMED_CODES: readonly Code[] = metadata.codes.map((c) => ({ identifier: c.match, name: c.name, description: c.description }));
const NAMED_LANGUAGES = new Map<string, Language>(
  metadata.languages.map((l) => [l.match, { identifier: l.match, name: l.name, alternate_name: l.alternate_name, direction: l.direction === 'rtl' ? 'rtl' : 'ltr' }]),
);
const NAMESPACES: readonly Namespace[] = metadata.namespaces.map((n) => ({ identifier: n.match, name: n.name, description: n.description }));

/** Family suffixes of project codes ("wiki", "wiktionary", …), longest first so that none shadows another. */
const FAMILY_CODES = PROJECTS.families.map((f) => f.code.replace('{lang}', '')).sort((a, b) => b.length - a.length);
const SPECIAL_CODES = new Set(PROJECTS.special.map((s) => s.code));

// English names of languages: ICU's (CLDR), for the codes grammar/metadata.json does not name.
const ENGLISH_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

function englishName(code: string): string | undefined {
  try {
    return ENGLISH_NAMES.of(code);
  } catch {
    return undefined; // not a BCP 47 tag (zh-classical, roa-tara): MediaWiki's own code only
  }
}

/** The project type of a code: the family suffix its database name ends with (`wiki`, `wikimedia`); none for single wikis (commonswiki). */
function codeOfProject(identifier: string): string | undefined {
  const facts = wikiData(identifier);
  if (facts !== undefined) {
    // The family the name reads as must be the wiki's own: commonswiki reads as a Wikipedia.
    const named = familyOf(identifier);
    return named?.family === facts.family ? named.defaults.suffix : undefined;
  }
  if (SPECIAL_CODES.has(identifier)) return undefined;
  return FAMILY_CODES.find((suffix) => identifier.endsWith(suffix));
}

let codeList: readonly Code[] | undefined;

/** Every project type: those grammar/metadata.json names, then any other a catalog project has. */
export function codes(): readonly Code[] {
  if (codeList === undefined) {
    const named = new Set(NAMED_CODES.map((c) => c.identifier));
    const others = new Set<string>();
    for (const identifier of Object.keys(SITENAMES)) {
      const code = codeOfProject(identifier);
      if (code !== undefined && !named.has(code)) others.add(code);
    }
    codeList = [...NAMED_CODES, ...[...others].sort().map((identifier) => ({ identifier }))];
  }
  return codeList;
}

export function namespaces(): readonly Namespace[] {
  return NAMESPACES;
}

/**
 * A language by code: as grammar/metadata.json names it; else with its English name (ICU), its
 * autonym (MediaWiki) and its direction (MediaWiki) where those are known; else the code alone.
 */
export function language(identifier: string): Language {
  const named = NAMED_LANGUAGES.get(identifier);
  if (named !== undefined) return named;
  const out: Language = { identifier };
  const name = englishName(identifier);
  const autonym = AUTONYMS[identifier];
  if (name !== undefined && name !== identifier) out.name = name;
  if (autonym !== undefined) out.alternate_name = autonym;
  if (out.name !== undefined || autonym !== undefined) out.direction = languageDir(identifier);
  return out;
}

/** Whether a language is named anywhere: grammar/metadata.json or the languages of the catalog's wikis. */
export function knownLanguage(identifier: string): boolean {
  return NAMED_LANGUAGES.has(identifier) || Object.hasOwn(AUTONYMS, identifier) || catalogLanguageCodes().has(identifier);
}

/** The language a project's wiki is written in (simplewiki → en, nowiki → nb), when its wiki is known. */
export function languageOfProject(project: string): string | undefined {
  const facts = wikiData(project);
  if (facts !== undefined) return facts.language;
  const host = hostOfProject(project);
  return host === undefined ? undefined : projectOfHost(host)?.language;
}

/**
 * The project model of a code whose wiki is known (a Wikimedia wiki, or a code of a family
 * grammar/projects.json places); undefined otherwise. `storedLanguage` names the language when
 * the wiki does not.
 */
export function project(identifier: string, storedLanguage?: string | null): Project | undefined {
  const host = wikiData(identifier)?.host ?? hostOfProject(identifier);
  if (host === undefined) return undefined;
  const out: Project = { identifier };
  const code = codeOfProject(identifier);
  if (code !== undefined) out.code = code;
  const name = SITENAMES[identifier] || NAMED_CODES.find((c) => c.identifier === code)?.name;
  if (name !== undefined) out.name = name;
  out.url = `https://${host}`;
  const lang = languageOfProject(identifier) ?? storedLanguage ?? undefined;
  if (lang !== undefined) out.in_language = language(lang);
  return out;
}

let catalogProjects: readonly Project[] | undefined;
let catalogLanguages: ReadonlySet<string> | undefined;

/** Every open, public Wikimedia wiki as a project, by code. */
export function bundledProjects(): readonly Project[] {
  catalogProjects ??= Object.keys(SITENAMES)
    .sort()
    .map((identifier) => project(identifier)!);
  return catalogProjects;
}

/** The language codes of those wikis. */
function catalogLanguageCodes(): ReadonlySet<string> {
  catalogLanguages ??= new Set(bundledProjects().flatMap((p) => (p.in_language === undefined ? [] : [p.in_language.identifier])));
  return catalogLanguages;
}

/** The languages of every open, public Wikimedia wiki, by code. */
export function bundledLanguages(): readonly Language[] {
  return [...catalogLanguageCodes()].sort().map(language);
}
