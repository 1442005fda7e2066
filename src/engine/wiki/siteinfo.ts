/**
 * A wiki's own account of itself: the `<siteinfo>` block at the head of an XML dump, or the XML of
 * the MediaWiki API's `action=query&meta=siteinfo` (general, namespaces, namespacealiases,
 * magicwords, interwikimap). Where a dump or a caller has one, it is the truth about that wiki
 * and wins over the generated per-wiki data (./profile.ts).
 *
 * Pure: the caller reads the file; this reads the string. Both shapes are read by one parser and
 * give one `SiteinfoData`; a block that holds nothing readable gives an empty one, never an error.
 */
import { XMLParser } from 'fast-xml-parser';
import { InvalidInputError } from '../errors.js';

/** One namespace as the wiki names it. */
export interface SiteinfoNamespace {
  /** MediaWiki namespace number (6 = File, 14 = Category …). */
  id: number;
  /** Local name, spaces as spaces ("Benutzer Diskussion"); "" for the main namespace. */
  name: string;
  /** English canonical name, when the source gives it (API form). */
  canonical?: string;
  /** Title case rule of the namespace. */
  case?: 'first-letter' | 'case-sensitive';
}

/** One magic word and its synonyms as the wiki accepts them (API form only). */
export interface SiteinfoMagicWord {
  /** MediaWiki's internal id, e.g. "img_thumbnail", "redirect", "notoc". */
  name: string;
  /** Synonyms as written, `$1` kept ("$1ピクセル", "upright=$1"). */
  aliases: string[];
  caseSensitive: boolean;
}

/** One interwiki prefix (API form only). */
export interface SiteinfoInterwiki {
  prefix: string;
  url: string;
  /** Whether the prefix is an interlanguage link (the API names the language). */
  language: boolean;
}

/** What a siteinfo block says about its wiki; every field optional except the lists. */
export interface SiteinfoData {
  siteName?: string;
  /** Database name, e.g. "jawiki" (dump `<dbname>`, API `wikiid`). */
  dbName?: string;
  /** URL of the main page (`<base>`). */
  base?: string;
  /** Host of `base`, e.g. "ja.wikipedia.org". */
  host?: string;
  /** Content language code (API `lang`; a dump does not state it). */
  language?: string;
  /** Writing direction (API `rtl` flag; a dump does not state it). */
  dir?: 'ltr' | 'rtl';
  /** Title case rule of the wiki ($wgCapitalLinks): "first-letter" or "case-sensitive". */
  case?: 'first-letter' | 'case-sensitive';
  generator?: string;
  namespaces: SiteinfoNamespace[];
  /** Other names of namespaces (API `namespacealiases`), spaces as spaces. */
  aliases: { id: number; name: string }[];
  magicWords: SiteinfoMagicWord[];
  interwiki: SiteinfoInterwiki[];
}

const ARRAYS = new Set(['namespace', 'ns', 'magicword', 'alias', 'iw']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // The API marks flags with empty attributes (rtl="", local=""); keep them as "".
  allowBooleanAttributes: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const nodes = (v: unknown): Node[] => (Array.isArray(v) ? v.filter(isNode) : isNode(v) ? [v] : []);

/** The text of an element: a string, or an element with attributes and `#text`. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isNode(v)) {
    const t = v['#text'];
    return typeof t === 'string' ? t : t === undefined ? '' : String(t);
  }
  return undefined;
}

const attr = (n: Node, name: string): string | undefined => {
  const v = n[name];
  return typeof v === 'string' ? v : v === true ? '' : undefined;
};

const caseRule = (v: string | undefined): SiteinfoData['case'] =>
  v === 'first-letter' || v === 'case-sensitive' ? v : undefined;

const spaces = (name: string): string => name.replace(/_/g, ' ').trim();

function hostOf(base: string): string | undefined {
  try {
    return new URL(base.startsWith('//') ? `https:${base}` : base).hostname || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a dump's `<siteinfo>…</siteinfo>` or the API's `<api><query>…</query></api>`; other text
 * around the block (the `<mediawiki>` head of a dump) is ignored. Throws InvalidInputError when
 * the string holds neither.
 */
export function parseSiteinfo(xml: string): SiteinfoData {
  const out: SiteinfoData = { namespaces: [], aliases: [], magicWords: [], interwiki: [] };
  const dumpStart = xml.indexOf('<siteinfo');
  const apiStart = xml.indexOf('<query');
  if (dumpStart >= 0) {
    const end = xml.indexOf('</siteinfo>', dumpStart);
    if (end < 0) throw new InvalidInputError('siteinfo: <siteinfo> is not closed');
    readDump(parser.parse(xml.slice(dumpStart, end + '</siteinfo>'.length)) as Node, out);
  } else if (apiStart >= 0) {
    const end = xml.indexOf('</query>', apiStart);
    if (end < 0) throw new InvalidInputError('siteinfo: <query> is not closed');
    readApi(parser.parse(xml.slice(apiStart, end + '</query>'.length)) as Node, out);
  } else {
    throw new InvalidInputError('siteinfo: neither a dump <siteinfo> block nor MediaWiki API siteinfo XML');
  }
  if (out.base !== undefined) {
    const host = hostOf(out.base);
    if (host !== undefined) out.host = host;
  }
  return out;
}

/** One namespace element: the number in `idAttr` (dump `key`, API `id`), the name, case and canonical name. */
function namespaceOf(ns: Node, idAttr: 'key' | 'id'): SiteinfoNamespace | undefined {
  const id = Number(attr(ns, idAttr));
  if (!Number.isInteger(id)) return undefined;
  const entry: SiteinfoNamespace = { id, name: spaces(text(ns) ?? '') };
  const canonical = attr(ns, 'canonical');
  if (canonical !== undefined && canonical !== '') entry.canonical = spaces(canonical);
  const nc = caseRule(attr(ns, 'case'));
  if (nc !== undefined) entry.case = nc;
  return entry;
}

function readDump(doc: Node, out: SiteinfoData): void {
  const info = isNode(doc.siteinfo) ? doc.siteinfo : {};
  const field = (key: string): string | undefined => {
    const v = text(info[key])?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const siteName = field('sitename');
  if (siteName !== undefined) out.siteName = siteName;
  const dbName = field('dbname');
  if (dbName !== undefined) out.dbName = dbName;
  const base = field('base');
  if (base !== undefined) out.base = base;
  const generator = field('generator');
  if (generator !== undefined) out.generator = generator;
  const c = caseRule(field('case'));
  if (c !== undefined) out.case = c;
  const list = isNode(info.namespaces) ? nodes(info.namespaces.namespace) : [];
  for (const ns of list) {
    const entry = namespaceOf(ns, 'key');
    if (entry !== undefined) out.namespaces.push(entry);
  }
}

function readApi(doc: Node, out: SiteinfoData): void {
  const query = isNode(doc.query) ? doc.query : {};
  const general = isNode(query.general) ? query.general : undefined;
  if (general !== undefined) {
    const siteName = attr(general, 'sitename');
    if (siteName) out.siteName = siteName;
    const dbName = attr(general, 'wikiid');
    if (dbName) out.dbName = dbName;
    const base = attr(general, 'base');
    if (base) out.base = base;
    const generator = attr(general, 'generator');
    if (generator) out.generator = generator;
    const language = attr(general, 'lang');
    if (language) out.language = language;
    out.dir = attr(general, 'rtl') !== undefined ? 'rtl' : 'ltr';
    const c = caseRule(attr(general, 'case'));
    if (c !== undefined) out.case = c;
  }
  const namespaces = isNode(query.namespaces) ? nodes(query.namespaces.ns) : [];
  for (const ns of namespaces) {
    const entry = namespaceOf(ns, 'id');
    if (entry !== undefined) out.namespaces.push(entry);
  }
  const aliases = isNode(query.namespacealiases) ? nodes(query.namespacealiases.ns) : [];
  for (const a of aliases) {
    const id = Number(attr(a, 'id'));
    const name = spaces(text(a) ?? '');
    if (Number.isInteger(id) && name !== '') out.aliases.push({ id, name });
  }
  const words = isNode(query.magicwords) ? nodes(query.magicwords.magicword) : [];
  for (const w of words) {
    const name = attr(w, 'name');
    if (name === undefined || name === '') continue;
    const list = isNode(w.aliases) ? (Array.isArray(w.aliases.alias) ? w.aliases.alias : []) : [];
    const synonyms = list.map(text).filter((s): s is string => s !== undefined && s !== '');
    out.magicWords.push({ name, aliases: synonyms, caseSensitive: attr(w, 'case-sensitive') !== undefined });
  }
  const iws = isNode(query.interwikimap) ? nodes(query.interwikimap.iw) : [];
  for (const iw of iws) {
    const prefix = attr(iw, 'prefix');
    const url = attr(iw, 'url');
    if (prefix && url) out.interwiki.push({ prefix, url, language: attr(iw, 'language') !== undefined });
  }
}
