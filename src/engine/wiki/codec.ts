/**
 * The compact form of the per-wiki facts in grammar/generated/ and the one way back from it:
 * entry shapes and their decoders, shared by the engine (./data.ts, which loads the files) and by
 * scripts/generate-wiki-data.ts (which proves that every entry decodes to its source). Pure: no
 * data of its own.
 */
/** A language's entry, before decoding (keys kept short: they repeat ~370 times). */
export interface LanguageEntry {
  /** Base language whose facts this entry amends; English when absent. */
  b?: string;
  /** Namespace names (id → name, `_` for spaces) differing from the base's. */
  n?: Record<string, string>;
  /** Namespace aliases (name → id) differing from or added to the base's. */
  a?: Record<string, number>;
  /** Aliases of the base this language does not have. */
  x?: string[];
  /** Gender forms of User/User talk ($namespaceGenderAliases), when they differ from the base's; `{}` for none. */
  g?: Record<string, Record<string, string>>;
  /** Magic words: synonyms written before the base's (the language's own, first). */
  m?: Record<string, string[]>;
  /** Magic words whose synonyms are not the own ones followed by the base's: the full list. */
  f?: Record<string, string[]>;
}

/** A wiki's entry, before decoding: what differs from its family's defaults. */
export interface WikiEntry {
  /** Family, when the database name does not say it (special wikis, chapters, Commons …). */
  f?: string;
  /** Content language, when it is not the database name's prefix ("nowiki" → "nb"). */
  l?: string;
  /** Host, when it is not "<prefix>.<family>.org". */
  h?: string;
  /** $wgCapitalLinks = false (titles keep the case of their first letter). */
  c?: false;
  /** Name of namespace 4, when it is not the family's. */
  m?: string;
  /** Name of namespace 5, when the wiki sets it ($wgMetaNamespaceTalk). */
  t?: string;
  /** $wgExtraNamespaces: id → name; an id below 100 overrides the language's name (jawiki 10 = Template). */
  x?: Record<string, string>;
  /** $wgNamespaceAliases added to the family's. */
  a?: Record<string, number>;
  /** $wgNamespaceAliases in full, when some of the family's are not among them. */
  A?: Record<string, number>;
}

export interface FamilyDefaults {
  /** Database name suffix ("wiki", "wiktionary"); absent for families of single wikis. */
  suffix?: string;
  /** Host with `{lang}` for the database name's prefix. */
  host?: string;
  /** Name of namespace 4. */
  meta?: string;
  /** $wgNamespaceAliases of most of the family's wikis. */
  aliases: Record<string, number>;
}

export interface LanguagesFile {
  canonical: Record<string, string>;
  words: string[];
  caseInsensitive: string[];
  languages: Record<string, string>;
  rtl: string[];
  fallbacks: Record<string, string[]>;
  deprecated: Record<string, string>;
}

export interface WikisFile {
  families: Record<string, FamilyDefaults>;
  wikis: Record<string, string>;
}

/** A language's full facts, as MediaWiki resolves them along its fallback chain. */
export interface LanguageFacts {
  code: string;
  /** id → name, `_` for spaces; "$1" in 4 and 5 stands for the wiki's meta namespace. */
  names: Record<string, string>;
  aliases: Record<string, number>;
  gender?: Record<string, Record<string, string>>;
  magicWords: Record<string, string[]>;
}

/** A wiki's full settings. */
export interface WikiFacts {
  dbName: string;
  family: string;
  language: string;
  host: string;
  capitalLinks: boolean;
  metaNamespace: string;
  metaNamespaceTalk?: string;
  extraNamespaces: Record<string, string>;
  namespaceAliases: Record<string, number>;
}

function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/**
 * A language's entry amended onto its base's facts: names and aliases are maps (the entry's keys
 * win, `x` removes), magic words the entry's own synonyms then the base's (as MediaWiki joins
 * them), or the entry's full list where it has one.
 */
export function decodeLanguage(code: string, entry: LanguageEntry, base: LanguageFacts | undefined): LanguageFacts {
  const aliases: Record<string, number> = { ...(base?.aliases ?? {}) };
  for (const name of entry.x ?? []) delete aliases[name];
  Object.assign(aliases, entry.a ?? {});
  const magicWords: Record<string, string[]> = {};
  for (const id of new Set([...Object.keys(base?.magicWords ?? {}), ...Object.keys(entry.m ?? {}), ...Object.keys(entry.f ?? {})])) {
    magicWords[id] = entry.f?.[id] ?? dedupe([...(entry.m?.[id] ?? []), ...(base?.magicWords[id] ?? [])]);
  }
  const facts: LanguageFacts = { code, names: { ...(base?.names ?? {}), ...(entry.n ?? {}) }, aliases, magicWords };
  // `g: {}` says the language has none, though its base has.
  const gender = entry.g === undefined ? base?.gender : Object.keys(entry.g).length > 0 ? entry.g : undefined;
  if (gender !== undefined) facts.gender = gender;
  return facts;
}

/** The family and database-name prefix of a database name, by the families' suffixes. */
export function splitDbName(dbName: string, families: Record<string, FamilyDefaults>): { family: string; prefix: string } | undefined {
  let best: { family: string; prefix: string } | undefined;
  for (const [family, d] of Object.entries(families)) {
    if (d.suffix === undefined || !dbName.endsWith(d.suffix) || dbName.length === d.suffix.length) continue;
    // The longest suffix wins: "wikisource" and "wikiversity" end with neither "wiki" nor each other,
    // but "…wiki" must not claim "…wikibooks".
    if (best === undefined || d.suffix.length > dbName.length - best.prefix.length) best = { family, prefix: dbName.slice(0, dbName.length - d.suffix.length) };
  }
  return best;
}

/** A wiki's entry amended onto its family's defaults. */
export function decodeWiki(dbName: string, entry: WikiEntry, families: Record<string, FamilyDefaults>): WikiFacts {
  const split = splitDbName(dbName, families);
  const family = entry.f ?? split?.family ?? 'special';
  const defaults = families[family] ?? { aliases: {} };
  const prefix = (split?.prefix ?? dbName).replace(/_/g, '-');
  const facts: WikiFacts = {
    dbName,
    family,
    language: entry.l ?? prefix,
    host: entry.h ?? (defaults.host ?? '').replace('{lang}', prefix),
    capitalLinks: entry.c ?? true,
    metaNamespace: entry.m ?? defaults.meta ?? 'Project',
    extraNamespaces: entry.x ?? {},
    namespaceAliases: entry.A ?? { ...defaults.aliases, ...(entry.a ?? {}) },
  };
  if (entry.t !== undefined) facts.metaNamespaceTalk = entry.t;
  return facts;
}

