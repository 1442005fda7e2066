/**
 * Page titles as MediaWiki normalises them (MediaWikiTitleCodec::splitTitleString), so that
 * "albert_einstein", "Albert%20Einstein" and " Albert  Einstein " name one article, in the store
 * and upstream. The rules that vary per wiki are data: `grammar/projects.json` says which projects
 * keep the first letter's case, `grammar/titles.json` holds namespaces and ucfirst exceptions.
 */
import { GRAMMAR, hostOfProject, projectOfHost } from '../../index.js';

/** MediaWiki's limit on a title's database key, in UTF-8 bytes (page.page_title is varbinary(255)). */
export const MAX_TITLE_BYTES = 255;

export class InvalidTitleError extends Error {
  readonly code = 'INVALID_TITLE';
  /** The title as received, for logs; the message shows a shortened, escaped copy. */
  readonly raw: string;
  readonly reason: string;
  constructor(raw: string, reason: string) {
    const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
    super(`invalid title ${JSON.stringify(shown)}: ${reason}`);
    this.name = 'InvalidTitleError';
    this.raw = raw;
    this.reason = reason;
  }
}

const titles = GRAMMAR.titles;
const families = GRAMMAR.projects.families;

interface Namespace {
  name: string;
  alwaysCapitalized: boolean;
  noLengthLimit: boolean;
}

/** Namespace by its name in lower case with single spaces: MediaWiki matches them case-insensitively. */
const namespaces = new Map<string, Namespace>();
for (const ns of titles.namespaces) {
  namespaces.set(ns.name.toLowerCase(), {
    name: ns.name,
    alwaysCapitalized: ns.alwaysCapitalized ?? false,
    noLengthLimit: ns.noLengthLimit ?? false,
  });
}
for (const a of titles.aliases) {
  const target = namespaces.get(a.name.toLowerCase());
  if (target === undefined) throw new Error(`grammar/titles.json: alias "${a.alias}" names unknown namespace "${a.name}"`);
  namespaces.set(a.alias.toLowerCase(), target);
}
const unchangedRanges = titles.ucfirstUnchanged.map((r) => [parseInt(r.from.slice(2), 16), parseInt(r.to.slice(2), 16)] as const);
const dottedCapitalI = new Set(titles.dottedCapitalI.languages);

/** How one wiki treats titles. */
interface TitleRules {
  capitalLinks: boolean;
  language: string | undefined;
}

function rulesOf(project: string): TitleRules {
  const host = hostOfProject(project);
  const language = host === undefined ? undefined : projectOfHost(host)?.language;
  let capitalLinks = true;
  if (host !== undefined) {
    for (const f of families) {
      const [, suffix] = f.host.split('{lang}');
      if (suffix !== undefined && host.endsWith(suffix)) {
        capitalLinks = f.caseSensitive !== true;
        break;
      }
    }
  }
  return { capitalLinks, language };
}

// MediaWikiTitleCodec: these all count as a space; bidi marks are dropped (they sneak in by copy-paste).
const SPACES = /[ _\u00A0\u1680\u180E\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;
const BIDI_MARKS = /[\u200E\u200F\u202A-\u202E]/g;
// The complement of $wgLegalTitleChars: '#<>[]|{}', C0 controls and DEL.
const ILLEGAL = /[#<>[\]|{}\u0000-\u001F\u007F]/;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
// With the u flag a well-formed pair is one code point, so only halves on their own match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const ENTITY_LIKE = /&[A-Za-z0-9\u0080-\uFFFF]+;/;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes %XX escapes as UTF-8. A '%' not followed by two hex digits is a literal '%' (legal in
 * titles, e.g. "100% Pure"), as PHP's urldecode leaves it; escapes that do not form UTF-8 are refused.
 */
export function percentDecode(raw: string): string {
  if (!raw.includes('%')) return raw;
  return raw.replace(PERCENT_RUN, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return utf8.decode(bytes);
    } catch {
      throw new InvalidTitleError(raw, `percent-escapes ${JSON.stringify(run)} do not encode UTF-8 text`);
    }
  });
}

/** MediaWiki's ucfirst: the first code point upper-cased, with the exceptions the wikis configure. */
export function ucfirst(text: string, language?: string): string {
  const cp = text.codePointAt(0);
  if (cp === undefined) return text;
  const first = String.fromCodePoint(cp);
  const rest = text.slice(first.length);
  if (cp === 0x69 /* i */ && language !== undefined && dottedCapitalI.has(language)) return `\u0130${rest}`;
  for (const [from, to] of unchangedRanges) if (cp >= from && cp <= to) return text;
  const upper = first.toUpperCase();
  // 'ß' → 'SS', 'ŉ' → 'ʼN': a letter whose capital is two letters keeps its case, as MediaWiki's
  // ucfirst overrides do; otherwise a title would change length and stop round-tripping.
  if (upper !== first && [...upper].length !== 1) return text;
  return upper + rest;
}

/**
 * The canonical title, with spaces, for a raw `article_name` (URL-encoded or not, '_' or ' ').
 * Throws InvalidTitleError for titles MediaWiki would refuse.
 */
export function normalizeTitle(raw: string, project: string): string {
  let text = percentDecode(raw).normalize('NFC').replace(BIDI_MARKS, '');
  text = trimUnderscores(text.replace(SPACES, '_'));
  // A leading colon forces the main namespace ("[[:Category:X]]"); it is not part of the title.
  if (text.startsWith(':')) text = trimUnderscores(text.slice(1));
  if (text.length === 0) throw new InvalidTitleError(raw, 'the title is empty');
  if (text.startsWith(':')) throw new InvalidTitleError(raw, 'the title starts with a colon');

  const illegal = ILLEGAL.exec(text);
  if (illegal !== null) {
    const ch = illegal[0];
    const shown = ch.charCodeAt(0) < 0x20 || ch === '\u007F' ? `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `"${ch}"`;
    throw new InvalidTitleError(raw, `character ${shown} is not allowed in titles`);
  }
  if (LONE_SURROGATE.test(text)) throw new InvalidTitleError(raw, 'it contains an unpaired surrogate, which is not Unicode text');
  if (PERCENT_ESCAPE.test(text)) throw new InvalidTitleError(raw, 'it still contains a %-escape after decoding (encoded twice?)');
  if (ENTITY_LIKE.test(text)) throw new InvalidTitleError(raw, 'HTML character references like "&amp;" are not allowed in titles');
  if (text.includes('~~~')) throw new InvalidTitleError(raw, '"~~~" is not allowed in titles (it is signature markup)');

  const rules = rulesOf(project);
  let namespace: Namespace | undefined;
  let key = text;
  const colon = text.indexOf(':');
  if (colon > 0) {
    const candidate = namespaces.get(trimUnderscores(text.slice(0, colon)).replace(/_/g, ' ').toLowerCase());
    if (candidate !== undefined) {
      namespace = candidate;
      key = trimUnderscores(text.slice(colon + 1));
      if (key.length === 0) throw new InvalidTitleError(raw, `nothing follows the namespace "${candidate.name}:"`);
      if (key.startsWith(':')) throw new InvalidTitleError(raw, `a second colon follows the namespace "${candidate.name}:"`);
    }
  }
  checkRelativePath(raw, key);
  if (rules.capitalLinks || namespace?.alwaysCapitalized === true) key = ucfirst(key, rules.language);
  // Upper-casing can leave a letter and a following combining mark composable ("ı́" → "Í").
  key = key.normalize('NFC');
  // Checked after upper-casing, which can lengthen the first letter ('ɐ' → 'Ɐ' is 2 → 3 bytes).
  if (namespace?.noLengthLimit !== true) {
    const bytes = Buffer.byteLength(key, 'utf8');
    if (bytes > MAX_TITLE_BYTES) {
      throw new InvalidTitleError(raw, `it is ${bytes} bytes long in UTF-8, over MediaWiki's limit of ${MAX_TITLE_BYTES}`);
    }
  }
  return (namespace === undefined ? key : `${namespace.name}:${key}`).replace(/_/g, ' ');
}

/** The database key form: underscores for spaces, as in URLs and the article store. */
export function toDbKey(title: string): string {
  return title.replace(/ /g, '_');
}

/** The title as one path segment of a REST route: everything reserved escaped, '/' included. */
export function toPathSegment(title: string): string {
  return encodeURIComponent(toDbKey(title));
}

/** The title as written after /wiki/ in an article URL (MediaWiki's wfUrlencode keeps these readable). */
export function toWikiPath(title: string): string {
  return encodeURIComponent(toDbKey(title)).replace(/%(2F|3A|40|24|21|2C|3B)/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 95) start++;
  while (end > start && text.charCodeAt(end - 1) === 95) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** MediaWiki refuses titles that would be relative paths in /wiki/ URLs. */
function checkRelativePath(raw: string, key: string): void {
  if (
    key === '.' ||
    key === '..' ||
    key.startsWith('./') ||
    key.startsWith('../') ||
    key.includes('/./') ||
    key.includes('/../') ||
    key.endsWith('/.') ||
    key.endsWith('/..')
  ) {
    throw new InvalidTitleError(raw, 'titles may not be relative paths like "." or "../"');
  }
}
