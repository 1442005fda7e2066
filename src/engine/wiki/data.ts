/**
 * The per-wiki facts of grammar/generated/ (written by scripts/generate-wiki-data.ts from
 * ../shared/data: MediaWiki's namespace names and magic words per language, Wikimedia's settings
 * per wiki), decoded on demand.
 *
 * Layout, chosen for a small load and a small heap (docs/architecture.md, "Per-wiki data"): each
 * language's and each wiki's entry is a JSON text inside the generated file, so importing the file
 * makes ~1,400 strings and no objects; an entry is parsed when a profile first asks for it, and
 * kept. A language's entry holds only what differs from its base language (another language of
 * its fallback chain, or English), so most entries are a few hundred bytes; a wiki's entry only
 * what differs from its family's defaults. `decodeLanguage` and `decodeWiki` are the one way back
 * to full facts, used by profiles and by the generator to prove that each entry decodes to its
 * source exactly.
 */
import generatedLanguages from '../../../grammar/generated/wiki-languages.json' with { type: 'json' };
import generatedWikis from '../../../grammar/generated/wikis.json' with { type: 'json' };
import { decodeLanguage, decodeWiki, splitDbName } from './codec.js';
import type { FamilyDefaults, LanguageEntry, LanguageFacts, LanguagesFile, WikiEntry, WikiFacts, WikisFile } from './codec.js';

const LANGUAGES = generatedLanguages as unknown as LanguagesFile;

/** The generated files as loaded, by their name under grammar/: what the engine's output depends on beside grammar/*.json. */
export const WIKI_DATA_SOURCES: Readonly<Record<string, unknown>> = { 'generated/wiki-languages': generatedLanguages, 'generated/wikis': generatedWikis };
const WIKIS = generatedWikis as unknown as WikisFile;

/** The English canonical namespace names (NamespaceInfo::CANONICAL_NAMES), `_` for spaces. */
export const CANONICAL_NAMESPACES: Readonly<Record<string, string>> = LANGUAGES.canonical;
/** The magic words the data covers (image options, redirect, behaviour switches …). */
export const MAGIC_WORD_IDS: readonly string[] = LANGUAGES.words;
const caseInsensitive = new Set(LANGUAGES.caseInsensitive);
/** Whether MediaWiki matches a magic word's synonyms regardless of case. */
export const isCaseInsensitiveWord = (id: string): boolean => caseInsensitive.has(id);

const rtl = new Set(LANGUAGES.rtl);

/**
 * `record[key]` when the record holds it itself. Language codes and database names come from the
 * page (`lang`, an envelope's `in_language`, `is_part_of`), and the generated files are plain
 * objects: `lang="__proto__"` read `Object.prototype` as a language's current code and threw a
 * TypeError out of the engine (found by the fuzz harness).
 */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function languageDir(code: string): 'ltr' | 'rtl' {
  return rtl.has(code) ? 'rtl' : 'ltr';
}

/** A language's fallback chain as MediaWiki gives it (English last), without the language itself. */
export function languageFallbacks(code: string): readonly string[] {
  return own(LANGUAGES.fallbacks, code) ?? (code === 'en' ? [] : ['en']);
}

/** MediaWiki's current code for a deprecated one ("be-x-old" → "be-tarask"); the code itself otherwise. */
export function currentLanguageCode(code: string): string {
  return own(LANGUAGES.deprecated, code) ?? code;
}

/** The raw entry of a language in the generated file, parsed; undefined when it has none. */
export function languageEntry(code: string): LanguageEntry | undefined {
  const text = own(LANGUAGES.languages, code);
  return text === undefined ? undefined : (JSON.parse(text) as LanguageEntry);
}

const languageFacts = new Map<string, LanguageFacts>();

/**
 * Full facts of a language that has its own MediaWiki messages data; undefined for one that has
 * none (MediaWiki gives such a language English data: see `profile.ts`). Decoded once, kept.
 */
export function languageData(code: string): LanguageFacts | undefined {
  const known = languageFacts.get(code);
  if (known !== undefined) return known;
  const entry = languageEntry(code);
  if (entry === undefined) return undefined;
  const baseCode = code === 'en' ? undefined : (entry.b ?? 'en');
  const facts = decodeLanguage(code, entry, baseCode === undefined ? undefined : languageData(baseCode));
  languageFacts.set(code, facts);
  return facts;
}

const wikiFacts = new Map<string, WikiFacts>();

/** A Wikimedia wiki's settings by database name ("jawiki"); undefined for a wiki the data does not list. */
export function wikiData(dbName: string): WikiFacts | undefined {
  const known = wikiFacts.get(dbName);
  if (known !== undefined) return known;
  const text = own(WIKIS.wikis, dbName);
  if (text === undefined) return undefined;
  const facts = decodeWiki(dbName, JSON.parse(text) as WikiEntry, WIKIS.families);
  wikiFacts.set(dbName, facts);
  return facts;
}

/** The family defaults, for a database name the data does not list ("xxwiki" → wikipedia). */
export function familyOf(dbName: string): { family: string; prefix: string; defaults: FamilyDefaults } | undefined {
  const split = splitDbName(dbName, WIKIS.families);
  if (split === undefined) return undefined;
  return { ...split, defaults: WIKIS.families[split.family]! };
}

/** Every database name the data lists (for tests and the catalog). */
export function wikiDbNames(): string[] {
  return Object.keys(WIKIS.wikis);
}

export type { LanguageFacts, WikiFacts } from './codec.js';
