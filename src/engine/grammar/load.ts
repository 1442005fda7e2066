/**
 * The one way the files in `grammar/` are read: each is validated against its zod schema
 * (./schemas.ts) once, when this module loads, so that a malformed file stops the program at start
 * with the file and the JSON path named, never a parse halfway through a corpus.
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

function validateAll(): Grammar {
  const out: Partial<Record<GrammarName, unknown>> = {};
  for (const name of Object.keys(GRAMMAR_SOURCES) as GrammarName[]) out[name] = validateGrammar(name, GRAMMAR_SOURCES[name]);
  return out as Grammar;
}

/** Every grammar file, validated and typed by its schema. */
export const GRAMMAR: Grammar = validateAll();
