/**
 * `fields` of a structured-contents request: dot paths into the Article ("name",
 * "version.identifier", "infoboxes.name"), checked against the Article zod schema and applied to
 * the stored JSON text.
 *
 * Paths go through arrays (a field of an array is picked inside every element), the recursive
 * Part (`sections.has_parts.has_parts.value`) and maps (`references.metadata.isbn`: any key).
 *
 * The selection is on the hot path, so the Article text is never parsed whole: one scan finds
 * where each top-level member's value starts and ends (jumping from bracket to quote with a
 * native regex, never decoding a string), a member taken whole is copied as bytes, and only a
 * member with a sub-selection (`version` for "version.identifier") is parsed and re-serialised.
 * Asking for `name` from a 1 MB Article therefore costs one scan, not a parse and a stringify of
 * the sections (bench/fields.ts measures both).
 */
import { z } from 'zod';
import { ArticleSchema } from '../../schema/article.js';

/**
 * Names the Structured Contents beta gave Article members in 2024, still sent by client code of
 * that time (the Python SDK's README asks for `["abstract", "article_sections", "infobox"]`):
 * each is accepted as a top-level field of the Article and answered under the name asked for.
 */
export const ARTICLE_FIELD_ALIASES: ReadonlyMap<string, string> = new Map([
  ['article_sections', 'sections'],
  ['infobox', 'infoboxes'],
]);

/** The names a top-level Article member is asked for by: its own, then its 2024 names. */
const NAMES_OF_MEMBER = new Map<string, string[]>();
for (const [alias, member] of ARTICLE_FIELD_ALIASES) NAMES_OF_MEMBER.set(member, [...(NAMES_OF_MEMBER.get(member) ?? [member]), alias]);

/** What to keep of an object: each key either whole (`true`) or narrowed further. */
export type Selection = ReadonlyMap<string, Selection | true>;

/** A path that names nothing in the Article; `message` says which segment and what exists. */
export class UnknownFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownFieldError';
  }
}

/** zod wrappers that do not change what a field can hold (an array's field is its elements'). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodArray) {
      current = current.element as z.ZodType; // a field of an array is a field of its elements
    } else {
      return current;
    }
  }
}

/**
 * The schema a dot path names in `model` (called `label` in messages: "Article", "Project"…);
 * throws UnknownFieldError naming the segment and what exists. The one walker for every
 * endpoint's `fields` (structured contents: the Article; Enterprise: models.ts), so a path means
 * the same everywhere. Recursion follows the path only, so the self-referencing Part schema is
 * walked as deep as asked.
 */
export function modelPath(model: z.ZodType, label: string, path: string): z.ZodType {
  const segments = path.split('.');
  if (segments.some((s) => s === '')) throw new UnknownFieldError(`"${path}" is not a field path (names joined by single dots)`);
  // A 2024 name stands for its Article member (the reply keeps the name asked for: selectFields).
  const member = model === ArticleSchema ? ARTICLE_FIELD_ALIASES.get(segments[0]!) : undefined;
  const walked = member === undefined ? segments : [member, ...segments.slice(1)];
  let schema = model;
  walked.forEach((segment, i) => {
    const inner = unwrap(schema);
    const where = segments.slice(0, i).join('.');
    if (inner instanceof z.ZodObject) {
      const shape = inner.shape as Record<string, z.ZodType>;
      if (!Object.hasOwn(shape, segment)) {
        const name = where === '' ? `${label} field "${segment}"` : `field "${segment}" in "${where}"`;
        throw new UnknownFieldError(`unknown ${name}; expected one of ${Object.keys(shape).join(', ')}`);
      }
      schema = shape[segment]!;
    } else if (inner instanceof z.ZodRecord) {
      schema = inner.valueType as z.ZodType; // a map: any key
    } else if (inner instanceof z.ZodUnknown || inner instanceof z.ZodAny) {
      // Free-form JSON (an Enterprise model score's details): any path into it may exist.
    } else {
      throw new UnknownFieldError(`"${where}" has no sub-fields`);
    }
  });
  return schema;
}

/**
 * The selection for paths into `model` (default: the Article), each checked first. A path that
 * contains another ("version", "version.identifier") keeps the wider.
 */
export function compileSelection(paths: readonly string[], model: z.ZodType = ArticleSchema, label = 'Article'): Selection {
  const root = new Map<string, Map<string, unknown> | true>();
  for (const path of paths) {
    modelPath(model, label, path);
    const segments = path.split('.');
    let node = root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const existing = node.get(segment);
      if (existing === true) break;
      if (i === segments.length - 1) {
        node.set(segment, true);
        break;
      }
      const next = existing ?? new Map<string, unknown>();
      node.set(segment, next);
      node = next as typeof root;
    }
  }
  return root as Selection;
}

/** One text per selection meaning, whatever the order or overlap of the paths (for the ETag). */
export function selectionKey(selection: Selection): string {
  return [...selection.keys()]
    .sort()
    .map((key) => {
      const sub = selection.get(key)!;
      return sub === true ? key : `${key}(${selectionKey(sub)})`;
    })
    .join(',');
}

/** `value` narrowed to `selection`, through arrays; keys keep the value's own order. */
export function selectValue(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((element) => selectValue(element, selection));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const sub = selection.get(key);
    if (sub === undefined || member === undefined) continue;
    out[key] = sub === true ? member : selectValue(member, sub);
  }
  return out;
}

/**
 * The Article JSON text narrowed to `selection`, members in the Article's order; a member asked
 * for by a 2024 name (ARTICLE_FIELD_ALIASES) is answered under that name.
 */
export function selectFields(json: string, selection: Selection): string {
  const parts: string[] = [];
  let remaining = selection.size;
  scanTopLevel(json, (key, start, end) => {
    for (const name of NAMES_OF_MEMBER.get(key) ?? [key]) {
      const sub = selection.get(name);
      if (sub === undefined) continue;
      const raw = json.slice(start, end);
      const text = sub === true ? raw : JSON.stringify(selectValue(JSON.parse(raw), sub));
      parts.push(`${JSON.stringify(name)}:${text}`);
      remaining -= 1;
    }
    // The big members (sections, infoboxes, tables, references) come last: stop before them
    // when everything asked for is already found.
    return remaining > 0;
  });
  return `{${parts.join(',')}}`;
}

export interface Member {
  key: string;
  /** The value's text is json.slice(start, end). */
  start: number;
  end: number;
}

/** Every top-level member of a JSON object text, with the span of its value. */
export function topLevelMembers(json: string): Member[] {
  const members: Member[] = [];
  scanTopLevel(json, (key, start, end) => members.push({ key, start, end }) > 0);
  return members;
}

const SPACE = /[ \t\n\r]*/y;
/** Where a number, true, false or null ends. */
const SCALAR_END = /[ \t\n\r,}\]]/g;
const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Visits the members of the top-level object of valid JSON text in order, with the span of each
 * value, until `visit` returns false. Only structure is scanned: strings are skipped to their
 * closing quote, never decoded (except keys that contain an escape). Assumes valid JSON (the
 * stored Article); throws a SyntaxError on what is not an object.
 */
export function scanTopLevel(json: string, visit: (key: string, start: number, end: number) => boolean): void {
  let i = skipSpace(json, 0);
  if (json.charCodeAt(i) !== OPEN_BRACE) throw new SyntaxError('expected a JSON object');
  i = skipSpace(json, i + 1);
  if (json.charCodeAt(i) === CLOSE_BRACE) return;
  for (;;) {
    if (json.charCodeAt(i) !== QUOTE) throw new SyntaxError(`expected a key at ${i}`);
    const keyEnd = stringEnd(json, i);
    const rawKey = json.slice(i + 1, keyEnd - 1);
    const key = rawKey.includes('\\') ? (JSON.parse(json.slice(i, keyEnd)) as string) : rawKey;
    i = skipSpace(json, keyEnd);
    if (json[i] !== ':') throw new SyntaxError(`expected ":" at ${i}`);
    const start = skipSpace(json, i + 1);
    const end = valueEnd(json, start);
    if (!visit(key, start, end)) return;
    i = skipSpace(json, end);
    if (json.charCodeAt(i) === CLOSE_BRACE) return;
    if (json[i] !== ',') throw new SyntaxError(`expected "," or "}" at ${i}`);
    i = skipSpace(json, i + 1);
  }
}

function skipSpace(json: string, from: number): number {
  SPACE.lastIndex = from;
  SPACE.test(json);
  return SPACE.lastIndex;
}

/** `from` is at an opening quote; returns the index after the closing one. */
function stringEnd(json: string, from: number): number {
  let quote = json.indexOf('"', from + 1);
  for (;;) {
    if (quote < 0) throw new SyntaxError('unterminated string');
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = json.indexOf('"', quote + 1);
  }
}

/** `from` is at the first character of a value; returns the index after its last. */
function valueEnd(json: string, from: number): number {
  const first = json.charCodeAt(from);
  if (first === QUOTE) return stringEnd(json, from);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    SCALAR_END.lastIndex = from;
    return SCALAR_END.exec(json)?.index ?? json.length;
  }
  // Outside strings, JSON text is only brackets, commas, colons, numbers and literals: a plain
  // loop over those is cheap, and each string is jumped over with indexOf.
  let depth = 0;
  for (let i = from; i < json.length; i++) {
    const ch = json.charCodeAt(i);
    if (ch === QUOTE) {
      i = stringEnd(json, i) - 1;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      depth++;
    } else if ((ch === CLOSE_BRACE || ch === CLOSE_BRACKET) && --depth === 0) {
      return i + 1;
    }
  }
  throw new SyntaxError('unterminated container');
}
