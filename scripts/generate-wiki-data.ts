/**
 * `npm run generate:wiki-data`: writes grammar/generated/wiki-languages.json and
 * grammar/generated/wikis.json — what the engine knows about every Wikimedia wiki and every
 * MediaWiki language (src/engine/wiki/) — and grammar/generated/wiki-catalog.json — which wikis
 * the service's catalog lists (src/service/content/enterprise/metadata.ts) — from the facts in ../shared/data (namespaces.json,
 * magic-words.json, wikis.json, languages.json; see its README for their sources). The package
 * ships without ../shared, so the output is committed; test/engine/wiki/generated.test.ts
 * regenerates it whenever ../shared/data is present and fails when the committed files differ.
 *
 *   --from DIR   read the shared data from DIR (default ../shared/data beside the project)
 *   --check      write nothing; exit 1 when the committed files are not what would be written
 *
 * The shape: `readSharedData` reads and checks the sources into one model (`SharedWikiData`);
 * each output is a function of that model (`engineWikiData` for the engine, `catalogData` for
 * the service's /v2/projects and /v2/languages). Every entry the engine
 * gets is decoded back (src/engine/wiki/data.ts) and compared with its source before anything is
 * written, so the compact form can never drift from the facts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { decodeLanguage, decodeWiki } from '../src/engine/wiki/codec.js';
import type { FamilyDefaults, LanguageEntry, LanguageFacts, LanguagesFile, WikiEntry, WikisFile } from '../src/engine/wiki/codec.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUTS = {
  languages: join(projectRoot, 'grammar', 'generated', 'wiki-languages.json'),
  wikis: join(projectRoot, 'grammar', 'generated', 'wikis.json'),
  catalog: join(projectRoot, 'grammar', 'generated', 'wiki-catalog.json'),
} as const;

/** ../shared/data beside the project, when it is there. */
export function sharedDataDir(): string | undefined {
  const dir = join(projectRoot, '..', 'shared', 'data');
  return existsSync(join(dir, 'namespaces.json')) ? dir : undefined;
}

// --- The sources, as ../shared/data/README.md describes them --------------------------------

const Meta = z.looseObject({ source: z.string() });
const NamespacesSchema = z.object({
  _meta: Meta,
  canonical: z.record(z.string(), z.string()),
  languages: z.record(
    z.string(),
    z.object({
      fallback: z.array(z.string()),
      names: z.record(z.string(), z.string()),
      aliases: z.record(z.string(), z.number().int()),
      gender_aliases: z.record(z.string(), z.record(z.string(), z.string())).optional(),
      inherited: z.boolean().optional(),
    }),
  ),
});
const MagicWordsSchema = z.object({
  _meta: Meta.extend({ words: z.array(z.string()) }),
  case_sensitive: z.record(z.string(), z.boolean()),
  languages: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
});
const WikisSchema = z.object({
  _meta: Meta,
  wikis: z.record(
    z.string(),
    z.looseObject({
      family: z.string(),
      lang: z.string(),
      host: z.string(),
      sitename: z.string().nullable(),
      open_public: z.boolean(),
      status: z.array(z.string()).optional(),
      capital_links: z.boolean(),
      meta_namespace: z.string(),
      meta_namespace_talk: z.string().optional(),
      extra_namespaces: z.record(z.string(), z.string()).optional(),
      namespace_aliases: z.record(z.string(), z.number().int()).optional(),
    }),
  ),
});
const LanguagesSchema = z.object({
  _meta: Meta,
  languages: z.record(z.string(), z.object({ autonym: z.string().nullable(), dir: z.enum(['ltr', 'rtl']), fallback: z.array(z.string()) })),
  deprecated_codes: z.record(z.string(), z.string()),
  bcp47_nonstandard: z.record(z.string(), z.string()),
});

/** The four source files, read and checked. */
export interface SharedWikiData {
  namespaces: z.infer<typeof NamespacesSchema>;
  magicWords: z.infer<typeof MagicWordsSchema>;
  wikis: z.infer<typeof WikisSchema>;
  languages: z.infer<typeof LanguagesSchema>;
}

export function readSharedData(dir: string): SharedWikiData {
  const read = <T>(file: string, schema: z.ZodType<T>): T => {
    const result = schema.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (!result.success) throw new Error(`${join(dir, file)}: ${result.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return result.data;
  };
  return {
    namespaces: read('namespaces.json', NamespacesSchema),
    magicWords: read('magic-words.json', MagicWordsSchema),
    wikis: read('wikis.json', WikisSchema),
    languages: read('languages.json', LanguagesSchema),
  };
}

// --- The engine's data -------------------------------------------------------------------------

/**
 * Families whose wikis are named "<prefix><suffix>" and served at "<prefix>.<family>.org"
 * (Wikimedia's dblists); the chapters' "<prefix>wikimedia" at "<prefix>.wikimedia.org".
 */
const FAMILY_PATTERNS: Record<string, { suffix: string; host: string }> = {
  wikipedia: { suffix: 'wiki', host: '{lang}.wikipedia.org' },
  wiktionary: { suffix: 'wiktionary', host: '{lang}.wiktionary.org' },
  wikibooks: { suffix: 'wikibooks', host: '{lang}.wikibooks.org' },
  wikinews: { suffix: 'wikinews', host: '{lang}.wikinews.org' },
  wikiquote: { suffix: 'wikiquote', host: '{lang}.wikiquote.org' },
  wikisource: { suffix: 'wikisource', host: '{lang}.wikisource.org' },
  wikiversity: { suffix: 'wikiversity', host: '{lang}.wikiversity.org' },
  wikivoyage: { suffix: 'wikivoyage', host: '{lang}.wikivoyage.org' },
  wikimedia: { suffix: 'wikimedia', host: '{lang}.wikimedia.org' },
};

const sizeOf = (v: unknown): number => JSON.stringify(v).length;

/** The most frequent value of a list of JSON-comparable values. */
function mostCommon<T>(values: readonly T[]): T | undefined {
  const counts = new Map<string, { value: T; n: number }>();
  for (const v of values) {
    const key = JSON.stringify(v);
    const c = counts.get(key);
    if (c === undefined) counts.set(key, { value: v, n: 1 });
    else c.n++;
  }
  let best: { value: T; n: number } | undefined;
  for (const c of counts.values()) if (best === undefined || c.n > best.n) best = c;
  return best?.value;
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A language's source facts in the decoded shape. */
function sourceFacts(data: SharedWikiData, code: string): LanguageFacts {
  const ns = data.namespaces.languages[code]!;
  const facts: LanguageFacts = { code, names: ns.names, aliases: ns.aliases, magicWords: data.magicWords.languages[code] ?? {} };
  if (ns.gender_aliases !== undefined) facts.gender = ns.gender_aliases;
  return facts;
}

/** The entry that amends `base` into `target` (both full facts); undefined members left out. */
function entryAgainst(target: LanguageFacts, base: LanguageFacts | undefined): LanguageEntry {
  const entry: LanguageEntry = {};
  const n: Record<string, string> = {};
  for (const [id, name] of Object.entries(target.names)) if (base?.names[id] !== name) n[id] = name;
  const a: Record<string, number> = {};
  for (const [name, id] of Object.entries(target.aliases)) if (base?.aliases[name] !== id) a[name] = id;
  const x = Object.keys(base?.aliases ?? {}).filter((name) => !Object.hasOwn(target.aliases, name));
  const m: Record<string, string[]> = {};
  const f: Record<string, string[]> = {};
  for (const [id, list] of Object.entries(target.magicWords)) {
    const rest = base?.magicWords[id] ?? [];
    // The shortest own prefix that, followed by the base's synonyms (duplicates dropped), gives
    // the list exactly; a list that is no such join (a fallback outside the base's chain) is kept whole.
    let own: string[] | undefined;
    for (let k = 0; k <= list.length && own === undefined; k++) {
      if (isDeepStrictEqual([...new Set([...list.slice(0, k), ...rest])], list)) own = list.slice(0, k);
    }
    if (own === undefined) f[id] = list;
    else if (own.length > 0) m[id] = own;
  }
  if (Object.keys(n).length > 0) entry.n = n;
  if (Object.keys(a).length > 0) entry.a = a;
  if (x.length > 0) entry.x = x;
  if (!isDeepStrictEqual(target.gender, base?.gender)) entry.g = target.gender ?? {};
  if (Object.keys(m).length > 0) entry.m = m;
  if (Object.keys(f).length > 0) entry.f = f;
  return entry;
}

/**
 * Each language's entry against the base that makes it smallest: English, or a language of its
 * fallback chain, as long as following bases never comes back to the language (MediaWiki's
 * chains are not transitive and may loop: ca ↔ …). Bases are chosen in code order; a language
 * is encoded after its base, so a base's entry is always complete when it is used.
 */
function languageEntries(data: SharedWikiData): Record<string, LanguageEntry> {
  const codes = Object.keys(data.namespaces.languages).sort();
  const baseOf = new Map<string, string | undefined>([['en', undefined]]);
  const reaches = (from: string | undefined, to: string): boolean => {
    for (let c = from, steps = 0; c !== undefined && steps < 100; c = baseOf.get(c), steps++) if (c === to) return true;
    return false;
  };
  for (const code of codes) {
    if (code === 'en') continue;
    const target = sourceFacts(data, code);
    const candidates = ['en', ...data.namespaces.languages[code]!.fallback].filter((c, i, all) => c !== code && all.indexOf(c) === i && data.namespaces.languages[c] !== undefined);
    let best: { code: string; size: number } | undefined;
    for (const c of candidates) {
      if (reaches(c, code)) continue;
      const size = sizeOf(entryAgainst(target, sourceFacts(data, c)));
      if (best === undefined || size < best.size) best = { code: c, size };
    }
    baseOf.set(code, best?.code ?? 'en');
  }
  const entries: Record<string, LanguageEntry> = {};
  for (const code of codes) {
    const base = baseOf.get(code);
    const entry = entryAgainst(sourceFacts(data, code), base === undefined ? undefined : sourceFacts(data, base));
    entries[code] = base === undefined || base === 'en' ? entry : { b: base, ...entry };
  }
  return entries;
}

/** Each wiki's entry against its family's defaults. */
function wikiEntries(data: SharedWikiData): { families: Record<string, FamilyDefaults>; wikis: Record<string, WikiEntry> } {
  const byFamily = new Map<string, string[]>();
  for (const [db, w] of Object.entries(data.wikis.wikis)) byFamily.set(w.family, [...(byFamily.get(w.family) ?? []), db]);
  const families: Record<string, FamilyDefaults> = {};
  for (const [family, dbs] of [...byFamily.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const members = dbs.map((db) => data.wikis.wikis[db]!);
    const d: FamilyDefaults = { aliases: sortedKeys(mostCommon(members.map((w) => w.namespace_aliases ?? {})) ?? {}) };
    const pattern = FAMILY_PATTERNS[family];
    if (pattern !== undefined) {
      d.suffix = pattern.suffix;
      d.host = pattern.host;
    }
    const meta = mostCommon(members.map((w) => w.meta_namespace));
    if (meta !== undefined) d.meta = meta;
    families[family] = d;
  }
  const wikis: Record<string, WikiEntry> = {};
  for (const db of Object.keys(data.wikis.wikis).sort()) {
    const w = data.wikis.wikis[db]!;
    const e: WikiEntry = {};
    // What the decoder derives from the name and the family; stored only where it differs.
    const derived = decodeWiki(db, {}, families);
    if (derived.family !== w.family) e.f = w.family;
    const withFamily = decodeWiki(db, e, families);
    if (withFamily.language !== w.lang) e.l = w.lang;
    if (withFamily.host !== w.host) e.h = w.host;
    if (!w.capital_links) e.c = false;
    if (withFamily.metaNamespace !== w.meta_namespace) e.m = w.meta_namespace;
    if (w.meta_namespace_talk !== undefined) e.t = w.meta_namespace_talk;
    if (w.extra_namespaces !== undefined && Object.keys(w.extra_namespaces).length > 0) e.x = w.extra_namespaces;
    const aliases = w.namespace_aliases ?? {};
    const defaults = families[e.f ?? derived.family]?.aliases ?? {};
    if (Object.entries(defaults).every(([k, v]) => aliases[k] === v)) {
      const added = Object.fromEntries(Object.entries(aliases).filter(([k]) => defaults[k] === undefined));
      if (Object.keys(added).length > 0) e.a = added;
    } else {
      e.A = aliases;
    }
    wikis[db] = e;
  }
  return { families, wikis };
}

export interface EngineWikiData {
  languages: LanguagesFile & { $comment: string; sources: Record<string, string> };
  wikis: WikisFile & { $comment: string; sources: Record<string, string> };
}

const GENERATED = 'Generated by scripts/generate-wiki-data.ts (npm run generate:wiki-data) from ../shared/data; do not edit.';

/** The two files the engine loads (grammar/generated/), checked against the sources entry by entry. */
export function engineWikiData(data: SharedWikiData): EngineWikiData {
  const entries = languageEntries(data);
  verifyLanguages(data, entries);
  const { families, wikis } = wikiEntries(data);
  verifyWikis(data, families, wikis);
  const words = data.magicWords._meta.words;
  const fallbacks: Record<string, string[]> = {};
  for (const [code, l] of Object.entries(data.languages.languages)) if (!isDeepStrictEqual(l.fallback, ['en']) && code !== 'en') fallbacks[code] = l.fallback;
  return {
    languages: {
      $comment: `${GENERATED} What MediaWiki knows per language: namespace names and aliases, gender forms, and the synonyms of the magic words in \`words\`. Each entry of \`languages\` is a JSON text, decoded on first use (src/engine/wiki/data.ts, which documents its keys): only what differs from its base language \`b\` (English when absent). \`rtl\` and \`fallbacks\` cover every language code MediaWiki names; \`deprecated\` maps old codes to current ones.`,
      sources: { namespaces: data.namespaces._meta.source, magicWords: data.magicWords._meta.source, languages: data.languages._meta.source },
      canonical: data.namespaces.canonical,
      words,
      caseInsensitive: words.filter((w) => data.magicWords.case_sensitive[w] === false),
      languages: Object.fromEntries(Object.entries(entries).map(([code, e]) => [code, JSON.stringify(e)])),
      rtl: Object.entries(data.languages.languages)
        .filter(([, l]) => l.dir === 'rtl')
        .map(([code]) => code)
        .sort(),
      fallbacks: sortedKeys(fallbacks),
      deprecated: sortedKeys(data.languages.deprecated_codes),
    },
    wikis: {
      $comment: `${GENERATED} Wikimedia's settings per wiki (database name): family, content language, host, $wgCapitalLinks, meta namespace, extra namespaces and namespace aliases. Each entry of \`wikis\` is a JSON text holding only what differs from its family's defaults in \`families\`, decoded on first use (src/engine/wiki/data.ts).`,
      sources: { wikis: data.wikis._meta.source },
      families,
      wikis: Object.fromEntries(Object.entries(wikis).map(([db, e]) => [db, JSON.stringify(e)])),
    },
  };
}

const sameMap = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => isDeepStrictEqual(sortedKeys(a), sortedKeys(b));

function verifyLanguages(data: SharedWikiData, entries: Record<string, LanguageEntry>): void {
  const decoded = new Map<string, LanguageFacts>();
  const decode = (code: string): LanguageFacts => {
    const known = decoded.get(code);
    if (known !== undefined) return known;
    const entry = entries[code]!;
    const facts = decodeLanguage(code, entry, code === 'en' ? undefined : decode(entry.b ?? 'en'));
    decoded.set(code, facts);
    return facts;
  };
  for (const code of Object.keys(entries)) {
    const got = decode(code);
    const want = sourceFacts(data, code);
    const same =
      sameMap(got.names, want.names) &&
      sameMap(got.aliases, want.aliases) &&
      isDeepStrictEqual(got.gender, want.gender) &&
      sameMap(got.magicWords, want.magicWords);
    if (!same) throw new Error(`generate-wiki-data: the entry of language ${code} does not decode to its source`);
  }
}

function verifyWikis(data: SharedWikiData, families: Record<string, FamilyDefaults>, wikis: Record<string, WikiEntry>): void {
  for (const [db, entry] of Object.entries(wikis)) {
    const got = decodeWiki(db, entry, families);
    const w = data.wikis.wikis[db]!;
    const want = {
      family: w.family,
      language: w.lang,
      host: w.host,
      capitalLinks: w.capital_links,
      metaNamespace: w.meta_namespace,
      metaNamespaceTalk: w.meta_namespace_talk,
      extraNamespaces: w.extra_namespaces ?? {},
      namespaceAliases: w.namespace_aliases ?? {},
    };
    const same =
      got.family === want.family &&
      got.language === want.language &&
      got.host === want.host &&
      got.capitalLinks === want.capitalLinks &&
      got.metaNamespace === want.metaNamespace &&
      got.metaNamespaceTalk === want.metaNamespaceTalk &&
      sameMap(got.extraNamespaces, want.extraNamespaces) &&
      sameMap(got.namespaceAliases, want.namespaceAliases);
    if (!same) throw new Error(`generate-wiki-data: the entry of wiki ${db} does not decode to its source`);
  }
}

// --- The service's catalog ----------------------------------------------------------------------

export interface CatalogData {
  $comment: string;
  sources: Record<string, string>;
  /** Every open, public Wikimedia wiki: database name → its sitename ($wgSitename). */
  projects: Record<string, string>;
  /** The language of each of those wikis → its autonym (MediaWiki's Names.php), where MediaWiki names one. */
  autonyms: Record<string, string>;
}

/**
 * What /v2/projects and /v2/languages list beyond the engine's tables: which wikis are open and
 * public, their sitenames, and their languages' autonyms. Family, host and language of a wiki
 * and the direction of a language are not repeated: the service reads them from the engine's
 * files (grammar/generated/wikis.json, wiki-languages.json) through src/index.ts.
 */
export function catalogData(data: SharedWikiData): CatalogData {
  const projects: Record<string, string> = {};
  const autonyms: Record<string, string> = {};
  for (const db of Object.keys(data.wikis.wikis).sort()) {
    const w = data.wikis.wikis[db]!;
    if (!w.open_public) continue;
    // A wiki without $wgSitename is named by its family ("Wikipedia") in the service.
    projects[db] = w.sitename ?? '';
    const autonym = data.languages.languages[w.lang]?.autonym;
    if (autonym !== undefined && autonym !== null) autonyms[w.lang] = autonym;
  }
  return {
    $comment: `${GENERATED} The service's catalog (/v2/projects, /v2/languages): every open, public Wikimedia wiki by database name with its sitename ("" when the wiki sets none), and the autonym of each of their languages. Host, family and language of a wiki come from wikis.json.`,
    sources: { wikis: data.wikis._meta.source, languages: data.languages._meta.source },
    projects,
    autonyms: sortedKeys(autonyms),
  };
}

/** The files' text as written (stable: same sources, same bytes). */
export function engineWikiFiles(data: SharedWikiData): Record<keyof typeof OUTPUTS, string> {
  const out = engineWikiData(data);
  return {
    languages: `${JSON.stringify(out.languages, null, 1)}\n`,
    wikis: `${JSON.stringify(out.wikis, null, 1)}\n`,
    // One project per line: a reviewer reads a change of the wiki list as a diff of lines.
    catalog: `${JSON.stringify(catalogData(data), null, 1)}\n`,
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const fromAt = args.indexOf('--from');
  const dir = fromAt >= 0 ? args[fromAt + 1] : sharedDataDir();
  if (dir === undefined) {
    console.error('generate-wiki-data: ../shared/data not found; pass --from DIR');
    process.exit(2);
  }
  const files = engineWikiFiles(readSharedData(dir));
  if (args.includes('--check')) {
    const stale = (Object.keys(OUTPUTS) as (keyof typeof OUTPUTS)[]).filter((k) => !existsSync(OUTPUTS[k]) || readFileSync(OUTPUTS[k], 'utf8') !== files[k]);
    if (stale.length > 0) {
      console.error(`generate-wiki-data: stale: ${stale.map((k) => OUTPUTS[k]).join(', ')} (run npm run generate:wiki-data)`);
      process.exit(1);
    }
    console.log('generate-wiki-data: up to date');
    return;
  }
  for (const k of Object.keys(OUTPUTS) as (keyof typeof OUTPUTS)[]) {
    writeFileSync(OUTPUTS[k], files[k]);
    console.log(`wrote ${OUTPUTS[k]} (${Buffer.byteLength(files[k])} bytes)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
