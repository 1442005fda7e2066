/**
 * The wikitext corpus (../shared/corpus/wikitext: 78 real articles in 33 languages, each wiki's
 * siteinfo) parsed and measured, one row per article: leftover markup, namespace-prefixed text,
 * image options as text, infoboxes, references without text, boilerplate sections. The measures
 * are defined in docs/conformance.md ("Wikitext corpus") and in the functions below; the report
 * is scripts/conformance-wikitext.ts, the gate test/wikitext/conformance.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRAMMAR, parseSiteinfo, parseWikitext } from '../../src/index.js';
import type { Article, Part, SiteinfoData } from '../../src/index.js';
import { normalizeTemplateName } from '../../src/engine/grammar.js';
import { corpusDir } from './corpus.js';
import { headingsOf, norm } from './wikitext.js';
import type { CompiledVocabulary, MarkupKind, WikiVocabulary } from './wikitext-checks.js';
import { MARKUP_KINDS, UNCARETED_UNIT, compileVocabulary, hasImageOption, hasNamespacePrefix, isPresentationalField, markupIn, textStrings } from './wikitext-checks.js';
import { blankRefs, headInfoboxTable, headTemplates, sourceSections } from './wikitext-source.js';

export interface WikitextCase {
  /** File name without `.wikitext`, e.g. "jawiki__日本". */
  name: string;
  project: string;
  language: string;
  title: string;
  path: string;
  /** The manifest's hand-written note on the article's layout. */
  layout: string;
}

interface ManifestEntry {
  file: string;
  kind: string;
  project: string;
  language?: string;
  title?: string;
  layout?: string;
}

/** The wikitext corpus folder, or undefined when the shared corpus (or its wikitext part) is absent. */
export function wikitextCorpusDir(): string | undefined {
  const dir = corpusDir();
  if (dir === undefined) return undefined;
  const folder = join(dir, 'wikitext');
  return existsSync(join(folder, 'manifest.json')) ? folder : undefined;
}

export function wikitextCases(folder: string): WikitextCase[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as ManifestEntry[];
  return manifest
    .filter((m) => m.kind === 'wikitext')
    .map((m) => ({
      name: m.file.replace(/\.wikitext$/, ''),
      project: m.project,
      language: m.language ?? m.project.replace(/wiki$/, ''),
      title: (m.title ?? '').replace(/_/g, ' '),
      path: join(folder, m.file),
      layout: m.layout ?? '',
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * What the corpus knows of a wiki: its API siteinfo (namespaces, aliases, magic words) with the
 * dump's `<siteinfo>` where there is one (namespaces as the dump's revision named them, site name,
 * base URL). Undefined when the corpus has neither file.
 */
export function corpusSiteinfo(folder: string, project: string): { api?: SiteinfoData; dump?: SiteinfoData } | undefined {
  const read = (file: string): SiteinfoData | undefined => {
    const path = join(folder, 'siteinfo', file);
    return existsSync(path) ? parseSiteinfo(readFileSync(path, 'utf8')) : undefined;
  };
  const api = read(`${project}.api.xml`);
  const dump = read(`${project}.xml`);
  if (api === undefined && dump === undefined) return undefined;
  const out: { api?: SiteinfoData; dump?: SiteinfoData } = {};
  if (api !== undefined) out.api = api;
  if (dump !== undefined) out.dump = dump;
  return out;
}

/** Namespaces whose prefix must never show in text: Media, File, Template, Category. */
const PREFIX_NAMESPACES = new Set([-2, 6, 10, 14]);
/** Their canonical English names, which every wiki accepts, and File's old name. */
const CANONICAL_PREFIXES = ['Media', 'File', 'Image', 'Template', 'Category'];

/** The checks' vocabulary from a wiki's siteinfo files (both, where the corpus has both). */
export function vocabularyOf(info: { api?: SiteinfoData; dump?: SiteinfoData } | undefined): WikiVocabulary {
  const namespaces = [...CANONICAL_PREFIXES];
  const imageOptions: string[] = [];
  const switches: string[] = [];
  for (const s of [info?.api, info?.dump]) {
    if (s === undefined) continue;
    for (const ns of s.namespaces) if (PREFIX_NAMESPACES.has(ns.id)) namespaces.push(ns.name, ...(ns.canonical === undefined ? [] : [ns.canonical]));
    for (const a of s.aliases) if (PREFIX_NAMESPACES.has(a.id)) namespaces.push(a.name);
    for (const w of s.magicWords) {
      if (w.name.startsWith('img_')) imageOptions.push(...w.aliases);
      for (const alias of w.aliases) if (/^(__|＿＿).+(__|＿＿)$/.test(alias)) switches.push(alias);
    }
  }
  return { namespaces, imageOptions, switches };
}

/** Measures counted per article; each is a count of things that should be zero. */
export const COUNTS = [
  'markup',
  'namespacePrefixed',
  'imageOptions',
  'uncaretedUnits',
  'infoboxMissing',
  'hiddenMetadataInfoboxes',
  'presentationalFields',
  'emptyFields',
  'emptyReferences',
  'boilerplateKept',
  'sectionsLost',
] as const;
export type Count = (typeof COUNTS)[number];

export const COUNT_LABELS: Record<Count, string> = {
  markup: 'strings with markup',
  namespacePrefixed: 'namespace-prefixed strings',
  imageOptions: 'image options as text',
  uncaretedUnits: 'units without caret (km2)',
  infoboxMissing: 'infobox missing',
  hiddenMetadataInfoboxes: 'hidden metadata as infobox',
  presentationalFields: 'presentational fields',
  emptyFields: 'empty infobox fields',
  emptyReferences: 'references without text',
  boilerplateKept: 'boilerplate sections kept',
  sectionsLost: 'content sections lost',
};

export interface WikitextCorpusRow {
  name: string;
  project: string;
  language: string;
  /** Text strings checked (textStrings). */
  strings: number;
  counts: Record<Count, number>;
  /** Strings with markup, per kind (a string may have several). */
  markupKinds: Record<MarkupKind, number>;
  infobox: {
    /** Whether the source has an infobox with parameters (see `infoboxExpectation`). */
    expected: boolean;
    /** How that was decided. */
    why: string;
    /** Infobox parts holding at least one field. */
    withFields: number;
    fields: number;
  };
  references: { total: number; emptyText: number; blankInSource: number };
  /** Up to three examples per count, for a reader to start from. */
  examples: Partial<Record<Count, string[]>>;
}

/**
 * Hidden metadata templates: data for bots and catalogues, which the wiki never shows. The
 * measure's own list (not the engine's, which it grades): enwiki {{Persondata}} (retired 2016,
 * still in old revisions), dewiki {{Personendaten}}.
 */
const HIDDEN_METADATA = new Set(['persondata', 'personendaten']);

/** The manifest note names an infobox (and does not say there is none). */
const LAYOUT_INFOBOX = /infobox|taxobox|geobox|基礎情報/i;
const LAYOUT_NO_INFOBOX = /\b(without|no) infobox\b/i;

/**
 * Whether the source has an infobox whose content is in the wikitext, and why:
 * (a) a wiki table whose class names an infobox stands before the first heading (dewiki Berlin);
 * (b) before the first heading, outside `<ref>`s, a template call with at least 12 named,
 *     non-blank parameters (the shape of an infobox; no coordinate, hatnote or variant template
 *     in the corpus has that many);
 * (c) the manifest's layout note names an infobox, and such a head template has at least 3.
 * An infobox called without parameters (its content comes from Wikidata: arwiki, elwiki, urwiki
 * Berlin-like pages) is not expected: the wikitext holds nothing to show.
 */
export function infoboxExpectation(source: string, layout: string): { expected: boolean; why: string } {
  if (headInfoboxTable(source)) return { expected: true, why: 'table with class infobox at the head' };
  const heads = headTemplates(source);
  const big = heads.find((t) => t.named >= 12);
  if (big !== undefined) return { expected: true, why: `{{${big.name}}} at the head with ${big.named} named parameters` };
  if (LAYOUT_INFOBOX.test(layout) && !LAYOUT_NO_INFOBOX.test(layout)) {
    const some = heads.find((t) => t.named >= 3);
    if (some !== undefined) return { expected: true, why: `layout note; {{${some.name}}} at the head with ${some.named} named parameters` };
    return { expected: false, why: 'layout note names an infobox, called without parameters (Wikidata)' };
  }
  return { expected: false, why: 'none at the head' };
}

/** Boilerplate titles the grammar knows for exactly this language (plus '*'); undefined for a language it does not list. */
function ownBoilerplate(language: string): ReadonlySet<string> | undefined {
  const own = GRAMMAR.sections.boilerplate[language];
  if (own === undefined) return undefined;
  return new Set([...(GRAMMAR.sections.boilerplate['*']?.titles ?? []), ...own.titles].map(norm));
}

function fieldsOf(parts: readonly Part[] | undefined, out: Part[]): Part[] {
  for (const p of parts ?? []) {
    if (p.type === 'field') out.push(p);
    fieldsOf(p.has_parts, out);
  }
  return out;
}

const zero = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** Letters a lost section must have in its own text to count (a heading over nothing is no loss). */
const LOST_MIN_PROSE = 20;

/** Scores one parsed article against its source; `vocabulary` is its wiki's. */
export function scoreArticle(c: WikitextCase, source: string, article: Article, vocabulary: CompiledVocabulary): WikitextCorpusRow {
  const counts = zero(COUNTS);
  const markupKinds = zero(MARKUP_KINDS);
  const examples: Partial<Record<Count, string[]>> = {};
  const note = (count: Count, text: string): void => {
    counts[count]++;
    const list = (examples[count] ??= []);
    if (list.length < 3) list.push(text.length > 160 ? `${text.slice(0, 157)}…` : text);
  };

  const strings = textStrings(article);
  for (const { place, text } of strings) {
    const kinds = markupIn(text, vocabulary);
    if (kinds.length > 0) {
      note('markup', `${place} [${kinds.join(',')}]: ${text}`);
      for (const k of kinds) markupKinds[k]++;
    }
    if (hasNamespacePrefix(text, vocabulary)) note('namespacePrefixed', `${place}: ${text}`);
    if (hasImageOption(text, vocabulary)) note('imageOptions', `${place}: ${text}`);
    if (place !== 'field-name' && UNCARETED_UNIT.test(text)) note('uncaretedUnits', `${place}: ${text}`);
  }

  const expectation = infoboxExpectation(source, c.layout);
  let withFields = 0;
  let fields = 0;
  for (const box of article.infoboxes) {
    const own = fieldsOf(box.has_parts, []);
    fields += own.length;
    if (own.length > 0) withFields++;
    if (HIDDEN_METADATA.has(normalizeTemplateName(box.name ?? ''))) note('hiddenMetadataInfoboxes', box.name ?? '');
    for (const f of own) {
      if (f.name !== undefined && isPresentationalField(f.name, f.value)) note('presentationalFields', `${f.name} = ${f.value ?? ''}`);
      if ((f.value ?? '').trim() === '' && (f.has_parts?.length ?? 0) === 0 && (f.images?.length ?? 0) === 0) note('emptyFields', f.name ?? '(unnamed)');
    }
  }
  if (expectation.expected && withFields === 0) note('infoboxMissing', expectation.why);

  const emptyText = article.references.filter((r) => r.text.value.trim() === '');
  const blankInSource = blankRefs(source);
  const emptyWithSource = Math.max(0, emptyText.length - blankInSource);
  for (const r of emptyText.slice(0, emptyWithSource)) note('emptyReferences', `${r.identifier}${r.template === undefined ? '' : ` {{${r.template.name}}}`}`);

  const ours = new Set(headingsOf(article.sections, []));
  const own = ownBoilerplate(c.language);
  if (own !== undefined) for (const name of ours) if (own.has(name)) note('boilerplateKept', name);
  // A subsection of a boilerplate section goes with it (zh 延伸阅读 › 入门): no loss of its own.
  let droppedBelow = Infinity;
  for (const s of sourceSections(source)) {
    const key = norm(s.title);
    if (s.level <= droppedBelow) droppedBelow = own?.has(key) === true ? s.level : Infinity;
    if (s.level > droppedBelow) continue;
    if (key.length === 0 || ours.has(key) || own?.has(key) === true || s.prose < LOST_MIN_PROSE) continue;
    note('sectionsLost', `${s.title} (${s.prose} letters)`);
  }

  return {
    name: c.name,
    project: c.project,
    language: c.language,
    strings: strings.length,
    counts,
    markupKinds,
    infobox: { ...expectation, withFields, fields },
    references: { total: article.references.length, emptyText: emptyText.length, blankInSource },
    examples,
  };
}

/** Parses and scores every article of the corpus folder. */
export function wikitextCorpusRows(folder: string, only?: string): WikitextCorpusRow[] {
  const vocabularies = new Map<string, CompiledVocabulary>();
  const rows: WikitextCorpusRow[] = [];
  for (const c of wikitextCases(folder)) {
    if (only !== undefined && c.name !== only) continue;
    let vocabulary = vocabularies.get(c.project);
    if (vocabulary === undefined) vocabularies.set(c.project, (vocabulary = compileVocabulary(vocabularyOf(corpusSiteinfo(folder, c.project)))));
    const source = readFileSync(c.path, 'utf8');
    const article = parseWikitext(source, { name: c.title, project: c.project, language: c.language });
    rows.push(scoreArticle(c, source, article, vocabulary));
  }
  return rows;
}

export interface CountSummary {
  /** Sum over the articles. */
  total: number;
  /** Articles with at least one. */
  articles: number;
}

export interface WikitextCorpusSummary {
  articles: number;
  strings: number;
  counts: Record<Count, CountSummary>;
  markupKinds: Record<MarkupKind, number>;
  infoboxes: { expected: number; present: number };
}

export function summarize(rows: readonly WikitextCorpusRow[]): WikitextCorpusSummary {
  const counts = Object.fromEntries(COUNTS.map((k) => [k, { total: 0, articles: 0 }])) as Record<Count, CountSummary>;
  const markupKinds = zero(MARKUP_KINDS);
  let strings = 0;
  let expected = 0;
  let present = 0;
  for (const r of rows) {
    strings += r.strings;
    for (const k of COUNTS) {
      counts[k].total += r.counts[k];
      if (r.counts[k] > 0) counts[k].articles++;
    }
    for (const k of MARKUP_KINDS) markupKinds[k] += r.markupKinds[k];
    if (r.infobox.expected) {
      expected++;
      if (r.infobox.withFields > 0) present++;
    }
  }
  return { articles: rows.length, strings, counts, markupKinds, infoboxes: { expected, present } };
}

/** Summaries per language, in language order. */
export function byLanguage(rows: readonly WikitextCorpusRow[]): Map<string, WikitextCorpusSummary> {
  const groups = new Map<string, WikitextCorpusRow[]>();
  for (const r of rows) groups.set(r.language, [...(groups.get(r.language) ?? []), r]);
  return new Map([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([lang, rs]) => [lang, summarize(rs)]));
}
