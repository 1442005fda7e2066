/**
 * The redirect at the page's start (`#REDIRECT [[Target]]`, in the wiki's own words too):
 * wikiparser-node's parser/redirect.js, which its root runs before stage 0 (src/index.js
 * `parseOnce`, case 0). Called by the driver, not a stage of its own.
 */
import type { Config } from 'wikiparser-node';
import type { ParseState, Token } from '../token.js';
import { normalizeTitle } from '../title.js';
import { RedirectToken } from '../tokens/redirect.js';

const regexes = new WeakMap<Config, RegExp>();
function redirectRegex(config: Config): RegExp {
  let re = regexes.get(config);
  if (re === undefined) {
    re = new RegExp(String.raw`^(\s*)((?:${config.redirection.join('|')})\s*(?::\s*)?)\[\[([^\n|\]]+)(\|.*?)?\]\](\s*)`, 'iu');
    regexes.set(config, re);
  }
  return re;
}

/**
 * Replaces a redirect at the start of the root's text by its marker (and makes its token, the
 * first in `accum`). Returns whether there was one. Call it on the root, once `accum` is empty,
 * before stage 0.
 */
export function parseRedirect(root: Token, state: ParseState): boolean {
  const text = root.raw!;
  const mt = redirectRegex(state.config).exec(text);
  if (!mt || !normalizeTitle(mt[3]!, 0, state.config, { decode: true }).valid) return false;
  root.raw = `\0${state.accum.length}o\x7F${text.slice(mt[0].length)}`;
  new RedirectToken(mt[1]!, mt[2]!, mt[3]!, mt[4], mt[5]!, state.config, state);
  return true;
}
