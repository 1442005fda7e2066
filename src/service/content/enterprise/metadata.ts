/**
 * Names and descriptions of project types, languages and namespaces (grammar/metadata.json), and
 * the Enterprise project model of a project code, built from grammar/projects.json: `enwiki` →
 * code `wiki`, name "Wikipedia", url `https://en.wikipedia.org`, language `en`.
 */
import { GRAMMAR, hostOfProject, projectOfHost } from '../../../index.js';
import type { Code, Language, Namespace, Project } from './models.js';

const { metadata, projects: PROJECTS } = GRAMMAR;

const CODES: readonly Code[] = metadata.codes.map((c) => ({ identifier: c.match, name: c.name, description: c.description }));
const LANGUAGES = new Map<string, Language>(
  metadata.languages.map((l) => [l.match, { identifier: l.match, name: l.name, alternate_name: l.alternate_name, direction: l.direction === 'rtl' ? 'rtl' : 'ltr' }]),
);
const NAMESPACES: readonly Namespace[] = metadata.namespaces.map((n) => ({ identifier: n.match, name: n.name, description: n.description }));

/** Family suffixes of project codes ("wiki", "wiktionary", …), longest first so that none shadows another. */
const FAMILY_CODES = PROJECTS.families.map((f) => f.code.replace('{lang}', '')).sort((a, b) => b.length - a.length);
const SPECIAL_CODES = new Set(PROJECTS.special.map((s) => s.code));

export function codes(): readonly Code[] {
  return CODES;
}

export function namespaces(): readonly Namespace[] {
  return NAMESPACES;
}

/** A language by code: named when grammar/metadata.json knows it, else the code alone. */
export function language(identifier: string): Language {
  return LANGUAGES.get(identifier) ?? { identifier };
}

export function knownLanguage(identifier: string): boolean {
  return LANGUAGES.has(identifier);
}

/** The language a project's wiki is written in (simplewiki → en), when its host is known. */
export function languageOfProject(project: string): string | undefined {
  const host = hostOfProject(project);
  return host === undefined ? undefined : projectOfHost(host)?.language;
}

/**
 * The project model of a code whose wiki is known (a family member or a special wiki); undefined
 * for a code grammar/projects.json cannot place. `storedLanguage` names the language when the host does not.
 */
export function project(identifier: string, storedLanguage?: string | null): Project | undefined {
  const host = hostOfProject(identifier);
  if (host === undefined) return undefined;
  const out: Project = { identifier };
  const code = SPECIAL_CODES.has(identifier) ? undefined : FAMILY_CODES.find((suffix) => identifier.endsWith(suffix));
  if (code !== undefined) {
    out.code = code;
    const named = CODES.find((c) => c.identifier === code)?.name;
    if (named !== undefined) out.name = named;
  }
  out.url = `https://${host}`;
  const lang = languageOfProject(identifier) ?? storedLanguage ?? undefined;
  if (lang !== undefined) out.in_language = language(lang);
  return out;
}
