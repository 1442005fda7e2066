/**
 * The parsers a record can need. The HTML engine is always there (imported where it is used); the
 * wikitext parser is loaded by name, on first use, so that HTML-only runs do not pay for it in
 * every worker, and a build without it still converts HTML and envelopes (wikitext records then
 * fail with a clear reason).
 */
// Types only: erased at run time, so importing this module never loads wikiparser-node.
import type { parseWikitext, readWikitext } from '../engine/wikitext/index.js';

export interface WikitextEngine {
  /** Wikitext + meta → Article (XML dump pages). */
  parseWikitext: typeof parseWikitext;
  /** The wikitext front door alone, which `parseEnvelope` assembles with the envelope's metadata. */
  readWikitext: typeof readWikitext;
}

/** `'not-loaded'`: not needed yet; converting a wikitext record asks for `loadWikitext` first. `undefined`: not in this build. */
export interface Engines {
  wikitext: WikitextEngine | undefined | 'not-loaded';
}

const WIKITEXT_MODULE = '../engine/wikitext/index.js';

/** The HTML engine only: workers start with this and load the wikitext parser on first use. */
export function htmlEngines(): Engines {
  return { wikitext: 'not-loaded' };
}

let wikitextModule: Promise<WikitextEngine | undefined> | undefined;

export async function loadWikitext(engines: Engines): Promise<void> {
  wikitextModule ??= import(WIKITEXT_MODULE).then(
    (mod: Partial<Record<keyof WikitextEngine, unknown>>) =>
      typeof mod.parseWikitext === 'function' && typeof mod.readWikitext === 'function'
        ? { parseWikitext: mod.parseWikitext as WikitextEngine['parseWikitext'], readWikitext: mod.readWikitext as WikitextEngine['readWikitext'] }
        : undefined,
    () => undefined,
  );
  engines.wikitext = await wikitextModule;
}

export async function loadEngines(): Promise<Engines> {
  const engines = htmlEngines();
  await loadWikitext(engines);
  return engines;
}
