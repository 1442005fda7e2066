/**
 * The one way the files in `grammar/` are read: each is validated against its zod schema
 * (./schemas.ts) once, when this module loads, so that a malformed file stops the program at start
 * with the file and the JSON path named, never a parse halfway through a corpus. A build validates
 * them once for every start (./stamp.ts): files that still have the build's stamp are not
 * validated again (zod took 0.17-0.29 s of each `wikistruct serve` start's main thread).
 *
 * The files are JSON imports rather than reads from disk: the engine stays free of I/O and of
 * path finding, and the same import works from `src/` (tsx), from `dist/src/` (tsc copies
 * grammar/*.json to dist/grammar, which the package ships) and in the explorer's browser bundle.
 */
import citations from '../../../grammar/citations.json' with { type: 'json' };
import infobox from '../../../grammar/infobox.json' with { type: 'json' };
import links from '../../../grammar/links.json' with { type: 'json' };
import math from '../../../grammar/math.json' with { type: 'json' };
import media from '../../../grammar/media.json' with { type: 'json' };
import metadata from '../../../grammar/metadata.json' with { type: 'json' };
import noise from '../../../grammar/noise.json' with { type: 'json' };
import parsoid from '../../../grammar/parsoid.json' with { type: 'json' };
import projects from '../../../grammar/projects.json' with { type: 'json' };
import pronunciation from '../../../grammar/pronunciation.json' with { type: 'json' };
import sections from '../../../grammar/sections.json' with { type: 'json' };
import tables from '../../../grammar/tables.json' with { type: 'json' };
import titles from '../../../grammar/titles.json' with { type: 'json' };
import wikitext from '../../../grammar/wikitext.json' with { type: 'json' };
import { GRAMMAR_SCHEMAS } from './schemas.js';
import { VALIDATED_GRAMMAR_STAMP } from './stamp.js';
import type { Grammar, GrammarName } from './schemas.js';

export interface GrammarIssue {
  /** Where in the file, as a JSONPath: `$.tags[3].why`, `$.templates["cite web"]`. */
  path: string;
  message: string;
}

/** A grammar file that does not have the shape its schema gives; thrown at load. */
export class GrammarError extends Error {
  /** e.g. "grammar/noise.json" */
  readonly file: string;
  readonly issues: readonly GrammarIssue[];
  constructor(file: string, issues: readonly GrammarIssue[]) {
    const shown = issues.slice(0, 10).map((i) => `${i.path}: ${i.message}`);
    if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
    super(`${file} is not a valid grammar file: ${shown.join('; ')}`);
    this.name = 'GrammarError';
    this.file = file;
    this.issues = issues;
  }
}

/** `data`, checked against the schema of grammar/<name>.json; throws GrammarError naming every problem. */
export function validateGrammar<K extends GrammarName>(name: K, data: unknown): Grammar[K] {
  const result = GRAMMAR_SCHEMAS[name].safeParse(data);
  if (result.success) return result.data as Grammar[K];
  const issues: GrammarIssue[] = [];
  for (const issue of result.error.issues) {
    // A misspelt key is reported at the key itself, which is where the reader must look.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: jsonPath([...issue.path, key]), message: 'not a key of this object (misspelt?)' });
    } else {
      issues.push({ path: jsonPath(issue.path), message: issue.message });
    }
  }
  throw new GrammarError(`grammar/${name}.json`, issues);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * The files as loaded, before validation, by name in name order: what the engine's output
 * depends on, hashed into the service's engine version (service/content/engine-version.ts).
 */
export const GRAMMAR_SOURCES: { readonly [K in GrammarName]: unknown } = {
  citations,
  infobox,
  links,
  math,
  media,
  metadata,
  noise,
  parsoid,
  projects,
  pronunciation,
  sections,
  tables,
  titles,
  wikitext,
};

/** Every file validated (GrammarError at the first that fails), as its schema returns it. */
export function validateAll(): Grammar {
  const out: Partial<Record<GrammarName, unknown>> = {};
  for (const name of Object.keys(GRAMMAR_SOURCES) as GrammarName[]) out[name] = validateGrammar(name, GRAMMAR_SOURCES[name]);
  return out as Grammar;
}

/**
 * The stamp of the grammar as imported: a 53-bit hash (cyrb53) of each file's name and JSON, in
 * name order, as 14 hex digits. Not cryptographic: it tells files edited since the build from the
 * ones it validated (whoever can edit them can as well edit this code); computed in a few
 * milliseconds, and in the browser too (no node:crypto).
 */
export function grammarStamp(sources: Readonly<Record<string, unknown>> = GRAMMAR_SOURCES): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const name of Object.keys(sources).sort()) {
    const text = `${name}\u0000${JSON.stringify(sources[name])}\u0000`;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * Every grammar file, validated and typed by its schema: the files as imported when they have the
 * stamp of the build that validated them (zod returns the same values, its schemas transform
 * nothing: the build checks that too), else validated now.
 */
export const GRAMMAR: Grammar =
  VALIDATED_GRAMMAR_STAMP !== undefined && grammarStamp() === VALIDATED_GRAMMAR_STAMP ? (GRAMMAR_SOURCES as Grammar) : validateAll();
