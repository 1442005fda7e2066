/**
 * The parsers a record can need. The HTML engine is always there (imported where it is used); the
 * wikitext parser is loaded by name, on first use, so that HTML-only runs do not pay for it in
 * every worker, and a build without it still converts HTML and envelopes (wikitext records then
 * fail with a clear reason).
 */
// Types only: erased at run time, so importing this module never loads wikiparser-node.
import type { WikitextDoor } from '../engine/parse-envelope.js';

/** `'not-loaded'`: not needed yet; converting a wikitext record asks for `loadWikitext` first. `undefined`: not in this build. */
export interface Engines {
  /** The wikitext front door (`readWikitext`): envelopes hand it to `parseEnvelope`, XML dump pages assemble its result. */
  wikitext: WikitextDoor | undefined | 'not-loaded';
}

const WIKITEXT_MODULE = '../engine/wikitext/index.js';

/** The HTML engine only: workers start with this and load the wikitext parser on first use. */
export function htmlEngines(): Engines {
  return { wikitext: 'not-loaded' };
}

let wikitextModule: Promise<WikitextDoor | undefined> | undefined;

export async function loadWikitext(engines: Engines): Promise<void> {
  wikitextModule ??= import(WIKITEXT_MODULE).then(
    (mod: { readWikitext?: unknown }) => (typeof mod.readWikitext === 'function' ? (mod.readWikitext as WikitextDoor) : undefined),
    () => undefined,
  );
  engines.wikitext = await wikitextModule;
}

export async function loadEngines(): Promise<Engines> {
  const engines = htmlEngines();
  await loadWikitext(engines);
  return engines;
}
