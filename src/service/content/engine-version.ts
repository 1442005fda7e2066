/**
 * The version of the parsed output, part of the parsed-article cache key (and of the reply cache's).
 * It follows everything the output depends on without anyone remembering to bump it: the package
 * version (every release), a hash of the grammar the engine loaded (editing grammar/*.json, the
 * advertised way to extend the engine, changes the output), and OUTPUT_REVISION for changes to the
 * engine's code between releases. A new version re-parses cached Articles lazily, on their next
 * request; rows of other versions stay until their article is stored again.
 */
import { createHash } from 'node:crypto';
import { GRAMMAR_SOURCES, WIKI_DATA_SOURCES } from '../../index.js';
import { CATALOG_SOURCE } from './enterprise/metadata.js';
import { WIKISTRUCT_VERSION } from './upstream/user-agent.js';

/** Bump when a change to the engine's code changes its output between releases. */
export const OUTPUT_REVISION = 3;

/**
 * `<package version>+<revision>.<12 hex digits of the grammar's hash>`. The grammar is hashed as
 * the engine has it (each file's JSON, by name), so reformatting a file changes nothing while any
 * changed value does. Every file counts, the few that only the service reads included: a needless
 * re-parse after such an edit is cheap, a stale Article served is not.
 */
export function engineVersion(packageVersion: string, grammar: Readonly<Record<string, unknown>>, revision: number): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(grammar).sort()) hash.update(`${name}\u0000${JSON.stringify(grammar[name])}\u0000`);
  return `${packageVersion}+${revision}.${hash.digest('hex').slice(0, 12)}`;
}

// The per-wiki data of grammar/generated/ counts as grammar: regenerating it changes the output.
// The service's catalog there too, like every file only the service reads.
export const ENGINE_VERSION = engineVersion(WIKISTRUCT_VERSION, { ...GRAMMAR_SOURCES, ...WIKI_DATA_SOURCES, ...CATALOG_SOURCE }, OUTPUT_REVISION);
