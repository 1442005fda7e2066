/**
 * The driver of our wikitext passes: wikiparser-node's `Token#parse`, without its machinery.
 * Stage n runs on the page, then on every plain token met so far, in creation order, those the
 * stage itself creates included (so a parameter value made by the braces stage is read by every
 * stage from the braces on, as the library reads it); then the tree is built from the markers.
 */
import type { Config } from 'wikiparser-node';
import { AstText, PlainToken, Token, buildFromRaw, runStage, tidy } from './token.js';
import type { ParseState } from './token.js';
import { STAGES } from './stages/index.js';
import { parseRedirect } from './stages/redirect.js';
import { setRereadStages } from './tokens/link.js';

// The tokens that read text again (a gallery's image, a title once built) run these stages;
// they cannot import them (the stages make the tokens).
setRereadStages(STAGES);

/** Parses `wikitext` with stages 0 to `maxStage - 1` (all by default) into a tree whose root is a `root` token. */
export function parseWikitextTree(wikitext: string, config: Config, maxStage = STAGES.length): Token {
  const state: ParseState = { config, accum: [], include: false };
  const root = new PlainToken('root', state, tidy(wikitext));
  state.accum.pop();
  // `#REDIRECT [[…]]` at the page's start, read before stage 0 as the library does.
  if (maxStage > 0) parseRedirect(root, state);
  for (let n = 0; n < maxStage && n < STAGES.length; n++) runStage(STAGES[n]!, n, root, state, config);
  state.plain = undefined;
  state.scanned = undefined;
  build(root, state);
  // Markers are all read once the tree is built (the hooks included), and templates and links
  // keep the state: emptied, `accum` does not live as long as the tree.
  state.accum.length = 0;
  return root;
}

/**
 * Plain tokens get their children from `raw`; any other token whose only child is a text with
 * markers (a link's target holding a template) gets them from that text, as the library's
 * `build` does for every token.
 */
function build(root: Token, state: ParseState): void {
  buildOne(root, state);
  const { accum } = state;
  for (let i = 0; i < accum.length; i++) {
    const t = accum[i]!;
    if (t.raw !== undefined) buildOne(t, state);
    else if (t.childNodes.length === 1) {
      const only = t.childNodes[0]!;
      if (only instanceof AstText && only.data.includes('\0')) {
        t.childNodes = [];
        t.appendAll(buildFromRaw(only.data, state.accum));
      }
    }
  }
  for (let i = 0; i < accum.length; i++) accum[i]!.afterBuild?.();
}

function buildOne(t: Token, state: ParseState): void {
  const raw = t.raw!;
  t.raw = undefined;
  t.appendAll(buildFromRaw(raw, state.accum));
}
