/**
 * What one wiki calls things: its namespaces and their aliases, its image options, redirect words
 * and behaviour switches, its case rule, host and writing direction — everything the wikitext
 * door must know to read `[[Datei:X.jpg|mini|hochkant=1.2]]` on dewiki as it reads
 * `[[File:X.jpg|thumb|upright=1.2]]` on enwiki, in any of the ~350 languages Wikimedia wikis are
 * written in.
 *
 * Sources, weakest first: MediaWiki's per-language data and Wikimedia's per-wiki settings
 * (grammar/generated/, ./data.ts), then the wiki's own siteinfo (a dump's <siteinfo>, or the API
 * siteinfo; ./siteinfo.ts), which wins where present. A wiki nobody listed still gets a profile:
 * an unknown database name is read by its family suffix ("xxwiki" → language xx, host
 * xx.wikipedia.org), an unknown language by its fallback chain, then its base subtag, then English
 * — and MediaWiki's English canonical names are accepted on every wiki, as MediaWiki accepts them.
 *
 * Pure; profiles are built once per key and kept (a profile of a siteinfo object lives as long as
 * that object).
 */
import { CANONICAL_NAMESPACES, currentLanguageCode, familyOf, isCaseInsensitiveWord, languageData, languageDir, languageFallbacks, MAGIC_WORD_IDS, wikiData } from './data.js';
import type { LanguageFacts, WikiFacts } from './data.js';
import type { SiteinfoData } from './siteinfo.js';
import { citationType } from '../grammar.js';
import { infoboxSequence, isHiddenMetadata, isInfoboxName, isNeverInfobox, isPresentationalParameter } from './templates.js';

/** An image option read from one `|`-separated part of a file link. */
export interface ImageOption {
  /** MediaWiki's name without `img_`: thumbnail, manualthumb, framed, frameless, upright, right, left, center, none, width, alt, link, border, baseline, sub, super, top, middle, bottom, text_top, text_bottom, lang, page, class. */
  option: string;
  /** What `$1` stood for: "250" or "250x120" (width), "1.2" (upright), the alt text, the link target. */
  value?: string;
}

/** One wiki's vocabulary. Every method is a lookup in tables built once per profile. */
export interface WikiProfile {
  /** Database name ("dewiki"), when known. */
  readonly project: string | undefined;
  /** Content language whose MediaWiki data the profile uses ("de"). */
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  /** "de.wikipedia.org", when known. */
  readonly host: string | undefined;
  /** Site name, when a siteinfo gave one. */
  readonly siteName: string | undefined;
  /** $wgCapitalLinks: whether the first letter of a title is case-insensitive (upper-cased). */
  readonly capitalLinks: boolean;
  /**
   * The namespace a title prefix names, as MediaWiki matches it: any case, `_` as a space,
   * surrounding spaces ignored; local names, aliases, gender forms and English canonical names.
   * `namespaceOf("Bild")` on dewiki → 6; `namespaceOf("Foo")` → undefined. The main namespace's
   * empty name is not a prefix.
   */
  namespaceOf(prefix: string): number | undefined;
  /** Every name of a namespace, the local one first, then aliases, then the English canonical one (spaces, not `_`). */
  namespaceNames(id: number): readonly string[];
  /** The ids of every namespace the profile names (the main namespace's 0 excepted). */
  namespaceIds(): readonly number[];
  /** The image option one part of a file link is, or undefined for a caption ("サムネイル", "250ピクセル", "hochkant=1.2", "alt=…"). */
  imageOption(part: string): ImageOption | undefined;
  /** Redirect words ("#WEITERLEITUNG", "#REDIRECT"). */
  readonly redirectWords: readonly string[];
  /** The behaviour switch a `__WORD__` is ("__目次非表示__" → "notoc"), or undefined. */
  behaviourSwitch(word: string): string | undefined;
  /** The synonyms of a magic word the data covers (`defaultsort`, `displaytitle`, `img_thumbnail` …), the local ones first. */
  magicWord(id: string): readonly string[];
  /** The magic word a name is (`{{DEFAULTSORT:…}}`'s "DEFAULTSORT:", "デフォルトソート:"), by MediaWiki's case rule for it; undefined for any other. */
  magicWordId(name: string): string | undefined;

  // --- Templates (grammar/wikitext.json `infobox`, grammar/citations.json), for this wiki ---

  /**
   * A template name as the grammar lists it: the wiki's Template namespace prefix ("Template:",
   * "Шаблон:", "テンプレート:") and subst: taken off, `_` and runs of spaces as one space, lower
   * case. A colon that names no namespace stays ({{Картка:Лідер}} on ukwiki is "картка:лідер").
   */
  templateName(raw: string): string;
  /** Whether the template renders an infobox (names, prefixes, suffixes of every language); never hidden metadata. */
  isInfobox(rawName: string): boolean;
  /** Whether the template holds data the wiki never shows ({{Persondata}}, {{Personendaten}}). */
  isHiddenMetadata(rawName: string): boolean;
  /** Whether the template is never an infobox whatever its shape (hatnotes, navboxes, maintenance, coordinates, layouts). */
  isNeverInfobox(rawName: string): boolean;
  /** Its role in an infobox written as a sequence of templates ({{Taxobox début}} … {{Taxobox fin}}). */
  infoboxSequence(rawName: string): 'start' | 'end' | undefined;
  /** Whether an infobox parameter is presentational (image, size, caption, alt, coordinate part, style …), by name or by a file-name or size value. */
  isPresentationalParameter(name: string, value?: string): boolean;
  /** Reference.type of a citation template on this wiki, or undefined (frwiki's {{Citation}} is a quotation). */
  citationType(rawName: string): string | undefined;
}

export interface WikiProfileInput {
  /** Database name, "jawiki". */
  project?: string | undefined;
  /** Language code, "ja": used when the project is unknown; a known wiki's own content language wins. */
  language?: string | undefined;
  /** The wiki's siteinfo, which wins over the generated data where it says something. */
  siteinfo?: SiteinfoData | undefined;
}

/** Namespace name as matched: lower case, `_` as space, runs of spaces as one, trimmed. */
export function namespaceKey(name: string): string {
  return name.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

const display = (name: string): string => name.replace(/_/g, ' ').trim();

/** The language whose data a code gets: itself, its current code, its fallbacks, its base subtag, English. */
function factsFor(code: string): LanguageFacts {
  const current = currentLanguageCode(code);
  for (const c of [current, ...languageFallbacks(current), current.split('-')[0]!, 'en']) {
    const facts = languageData(c);
    if (facts !== undefined) return facts;
  }
  throw new Error('wiki data: English has no entry (grammar/generated/wiki-languages.json is broken)');
}

interface Wiki {
  project: string | undefined;
  language: string;
  host: string | undefined;
  facts: WikiFacts | undefined;
}

/** The wiki a project code names: listed, or read by its family suffix. */
function wikiOf(project: string | undefined, language: string | undefined): Wiki {
  if (project !== undefined) {
    const facts = wikiData(project);
    if (facts !== undefined) return { project, language: facts.language, host: facts.host, facts };
    const family = familyOf(project);
    if (family !== undefined) {
      const prefix = family.prefix.replace(/_/g, '-');
      return { project, language: language ?? currentLanguageCode(prefix), host: family.defaults.host?.replace('{lang}', prefix), facts: undefined };
    }
  }
  return { project, language: language ?? 'en', host: undefined, facts: undefined };
}

interface Pattern {
  before: string;
  after: string;
  option: string;
}

class Profile implements WikiProfile {
  readonly project: string | undefined;
  readonly language: string;
  readonly dir: 'ltr' | 'rtl';
  readonly host: string | undefined;
  readonly siteName: string | undefined;
  readonly capitalLinks: boolean;
  readonly redirectWords: readonly string[];
  private readonly namespaces = new Map<string, number>();
  private readonly names = new Map<number, string[]>();
  private readonly words = new Map<string, string[]>();
  private readonly plainOptions = new Map<string, string>();
  private readonly patterns: Pattern[] = [];
  /** Magic word by synonym: as written for the case-sensitive words, lower-cased for the others. */
  private readonly wordIds = new WordTable();
  private readonly switches = new WordTable();

  constructor(input: WikiProfileInput) {
    const site = input.siteinfo;
    const wiki = wikiOf(input.project ?? site?.dbName, site?.language ?? input.language);
    const language = site?.language ?? wiki.language;
    const facts = factsFor(language);
    this.project = wiki.project;
    this.language = language;
    this.dir = site?.dir ?? languageDir(currentLanguageCode(language));
    this.host = site?.host ?? wiki.host;
    this.siteName = site?.siteName;
    this.capitalLinks = site?.case === undefined ? (wiki.facts?.capitalLinks ?? true) : site.case === 'first-letter';
    this.addNamespaces(facts, wiki.facts, site);
    this.addMagicWords(facts, site);
    this.redirectWords = this.magicWord('redirect');
  }

  private addName(id: number, name: string, primary = false): void {
    const shown = display(name);
    if (shown === '' && id !== 0) return;
    const key = namespaceKey(shown);
    if (!this.namespaces.has(key) || primary) this.namespaces.set(key, id);
    const list = (this.names.get(id) ?? []).filter((n) => !primary || n !== shown);
    if (primary) list.unshift(shown);
    else if (!list.includes(shown)) list.push(shown);
    this.names.set(id, list);
  }

  /**
   * Weakest first, so that a stronger source's primary name ends first in `names`: the
   * language's names and aliases, the wiki's extra namespaces and aliases, the siteinfo's; the
   * English canonical names are accepted everywhere and listed last.
   */
  private addNamespaces(facts: LanguageFacts, wiki: WikiFacts | undefined, site: SiteinfoData | undefined): void {
    const meta = wiki?.metaNamespace ?? site?.namespaces.find((n) => n.id === 4)?.name ?? 'Project';
    const metaTalk = wiki?.metaNamespaceTalk;
    const fill = (name: string, id: number): string => {
      if (id === 5 && metaTalk !== undefined) return metaTalk;
      // "{{GRAMMAR:genitive|$1}}" (ru) cannot be declined here; the undeclined name is the closest.
      return name.replace(/\{\{GRAMMAR:[^|}]*\|\$1\}\}/g, meta).replace(/\$1/g, meta);
    };
    for (const [id, name] of Object.entries(facts.names)) this.addName(Number(id), fill(name, Number(id)), true);
    for (const [name, id] of Object.entries(facts.aliases)) this.addName(id, fill(name, id));
    for (const [id, forms] of Object.entries(facts.gender ?? {})) for (const form of Object.values(forms)) this.addName(Number(id), form);
    for (const [id, name] of Object.entries(wiki?.extraNamespaces ?? {})) this.addName(Number(id), name, true);
    for (const [name, id] of Object.entries(wiki?.namespaceAliases ?? {})) this.addName(id, name);
    for (const ns of site?.namespaces ?? []) {
      this.addName(ns.id, ns.name, true);
      if (ns.canonical !== undefined) this.addName(ns.id, ns.canonical);
    }
    for (const a of site?.aliases ?? []) this.addName(a.id, a.name);
    for (const [id, name] of Object.entries(CANONICAL_NAMESPACES)) this.addName(Number(id), name);
    this.names.delete(0);
    this.namespaces.delete('');
  }

  /** The siteinfo's synonyms replace the language's, word by word (it lists the wiki's own). */
  private addMagicWords(facts: LanguageFacts, site: SiteinfoData | undefined): void {
    const fromSite = new Map((site?.magicWords ?? []).map((w) => [w.name, w]));
    for (const id of new Set([...MAGIC_WORD_IDS, ...fromSite.keys()])) {
      const own = fromSite.get(id);
      const synonyms = own?.aliases ?? facts.magicWords[id] ?? [];
      if (synonyms.length === 0) continue;
      const insensitive = own === undefined ? isCaseInsensitiveWord(id) : !own.caseSensitive;
      this.words.set(id, synonyms);
      for (const s of synonyms) {
        this.wordIds.add(s, id, insensitive);
        if (/^(?:__|＿＿).+(?:__|＿＿)$/.test(s)) this.switches.add(s, id, insensitive);
        if (!id.startsWith('img_')) continue;
        const option = id.slice(4);
        const at = s.indexOf('$1');
        if (at < 0) this.plainOptions.set(s, option);
        else this.patterns.push({ before: s.slice(0, at), after: s.slice(at + 2), option });
      }
    }
    // The most specific form first: "thumbnail=$1" before "$1px" would never clash, but
    // "upright $1" must be tried before a shorter prefix of another option.
    this.patterns.sort((a, b) => b.before.length + b.after.length - (a.before.length + a.after.length));
  }

  namespaceOf(prefix: string): number | undefined {
    return this.namespaces.get(namespaceKey(prefix));
  }

  namespaceNames(id: number): readonly string[] {
    return this.names.get(id) ?? [];
  }

  namespaceIds(): readonly number[] {
    return [...this.names.keys()];
  }

  imageOption(part: string): ImageOption | undefined {
    const word = part.trim();
    const plain = this.plainOptions.get(word);
    if (plain !== undefined) return { option: plain };
    for (const p of this.patterns) {
      if (word.length < p.before.length + p.after.length || !word.startsWith(p.before) || !word.endsWith(p.after)) continue;
      const value = word.slice(p.before.length, word.length - p.after.length);
      // MediaWiki takes a width only when it is one: "250", "250x120", "x120" (Parser::makeImage).
      if (p.option === 'width' && !/^\d*(?:x\d*)?\s*$/.test(value)) continue;
      if (p.option === 'width' && !/\d/.test(value)) continue;
      return { option: p.option, value: value.trim() };
    }
    return undefined;
  }

  behaviourSwitch(word: string): string | undefined {
    return this.switches.get(word.trim());
  }

  magicWord(id: string): readonly string[] {
    return this.words.get(id) ?? [];
  }

  templateName(raw: string): string {
    let name = raw.replace(/[\s_]+/g, ' ').trim();
    for (let i = 0; i < 3; i++) {
      const colon = name.indexOf(':');
      if (colon <= 0) break;
      const prefix = name.slice(0, colon);
      const id = this.namespaceOf(prefix);
      if (id !== 10 && !/^(?:safe)?subst$/i.test(prefix.trim())) break;
      name = name.slice(colon + 1).trim();
    }
    return name.toLowerCase();
  }

  isInfobox(rawName: string): boolean {
    return isInfoboxName(this.templateName(rawName));
  }

  isHiddenMetadata(rawName: string): boolean {
    return isHiddenMetadata(this.templateName(rawName));
  }

  isNeverInfobox(rawName: string): boolean {
    return isNeverInfobox(this.templateName(rawName));
  }

  infoboxSequence(rawName: string): 'start' | 'end' | undefined {
    return infoboxSequence(this.templateName(rawName));
  }

  isPresentationalParameter(name: string, value?: string): boolean {
    return isPresentationalParameter(name, value);
  }

  citationType(rawName: string): string | undefined {
    return citationType(this.templateName(rawName), this.language);
  }

  magicWordId(name: string): string | undefined {
    const w = name.trim();
    // {{DEFAULTSORT:key}}: the parser splits at the colon, the synonym holds it.
    return this.wordIds.get(w) ?? (w.endsWith(':') ? undefined : this.wordIds.get(`${w}:`));
  }
}

/** Words by synonym, each matched as MediaWiki matches it: exactly, or in any case. */
class WordTable {
  private readonly exact = new Map<string, string>();
  private readonly folded = new Map<string, string>();

  add(synonym: string, id: string, anyCase: boolean): void {
    const map = anyCase ? this.folded : this.exact;
    const key = anyCase ? synonym.toLowerCase() : synonym;
    if (!map.has(key)) map.set(key, id);
  }

  get(word: string): string | undefined {
    return this.exact.get(word) ?? this.folded.get(word.toLowerCase());
  }
}

const byKey = new Map<string, WikiProfile>();
const bySiteinfo = new WeakMap<SiteinfoData, Map<string, WikiProfile>>();
const bySiteinfoContent = new Map<string, WikiProfile>();

/**
 * What of a siteinfo a profile depends on, as a string: a worker thread receives a structured
 * clone of the same dump's <siteinfo> with every page, and must not build a profile per page.
 */
function siteinfoKey(s: SiteinfoData): string {
  return JSON.stringify([s.dbName, s.base, s.language, s.dir, s.case, s.siteName, s.namespaces, s.aliases, s.magicWords]);
}

/** Keys come from page metadata: a stream of made-up project codes must not grow a cache forever. */
function remember<K>(cache: Map<K, WikiProfile>, key: K, profile: WikiProfile): WikiProfile {
  if (cache.size >= 1_000) cache.clear();
  cache.set(key, profile);
  return profile;
}

/**
 * The profile of a wiki, built once per (project, language) — or per siteinfo (its object, else
 * its content) and (project, language) — and kept. Nothing is required: `wikiProfile({})` is
 * English Wikipedia's vocabulary without its wiki settings.
 */
export function wikiProfile(input: WikiProfileInput = {}): WikiProfile {
  const key = `${input.project ?? ''}\u0000${input.language ?? ''}`;
  const site = input.siteinfo;
  if (site === undefined) return byKey.get(key) ?? remember(byKey, key, new Profile(input));
  let perObject = bySiteinfo.get(site);
  if (perObject === undefined) bySiteinfo.set(site, (perObject = new Map()));
  const known = perObject.get(key);
  if (known !== undefined) return known;
  const contentKey = `${key}\u0000${siteinfoKey(site)}`;
  const profile = bySiteinfoContent.get(contentKey) ?? remember(bySiteinfoContent, contentKey, new Profile(input));
  return remember(perObject, key, profile);
}

/** What a caller may pass as a page's wiki (`parseWikitext(text, meta, { site })`): a profile, or a siteinfo. */
export type WikiSite = WikiProfile | SiteinfoData;

export function isWikiProfile(site: WikiSite): site is WikiProfile {
  return typeof (site as WikiProfile).namespaceOf === 'function';
}

/** The profile for a page: the caller's profile as is, or one built from its siteinfo, else from the page's project and language. */
export function profileForPage(site: WikiSite | undefined, project: string | undefined, language: string | undefined): WikiProfile {
  if (site !== undefined && isWikiProfile(site)) return site;
  return wikiProfile({ project, language, siteinfo: site });
}
