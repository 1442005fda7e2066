/**
 * A navigation box, a hidden metadata template or a maintenance tag alone on its line: a block
 * that is no text of the article (the HTML door drops `div.navbox`, hatnotes, metadata as noise).
 * Decided by grammar first (grammar/wikitext.json `noise`: navbox names per wiki, hatnotes,
 * maintenance tags; `infobox.hiddenMetadata`), each name with its reason; then by structure, for
 * the navigation boxes no list names: a template of named parameters only, two or more of them
 * lists of links and none of them prose. Footnotes written inside are still footnotes of the page
 * (MediaWiki numbers them): their uses are committed, the text is not.
 */
import type { AstNodes, ParameterToken, TranscludeToken } from '../syntax/types.js';
import { normalizeTemplateName } from '../../grammar.js';
import { isHiddenMetadata } from '../../wiki/templates.js';
import { isCoordTemplate } from '../coord.js';
import { templateKind } from '../grammar.js';
import { render } from '../render.js';
import type { Scope } from '../scope.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';

/** Words of its own (outside links) from which a value is prose, not a label or a list of links. */
const PROSE_WORDS = 4;

export const navigation: WikitextRule = {
  name: 'navigation',
  breaks: true,
  test: (n, walk) => n.type === 'template' && isNavigation(n as TranscludeToken, walk.ctx),
  run(n, walk) {
    walk.commit(render(walk.ctx, [n]).found.filter((f) => f.kind !== 'infobox' && f.kind !== 'description'));
  },
};

/** Alone on its line, and named or shaped as navigation: the cheap tests first (every template at the root is asked). */
function isNavigation(t: TranscludeToken, scope: Scope): boolean {
  // Coordinates are shown (coord.ts), whatever list names them.
  if (isCoordTemplate(t.name)) return false;
  const kind = templateKind(t.name).kind;
  if (kind === 'noise' || isHiddenMetadata(normalizeTemplateName(t.name))) return aloneOnLine(t);
  return kind === 'unknown' && mayListLinks(t) && aloneOnLine(t) && linksOnly(t, scope);
}

/** What linksOnly asks without rendering: two parameters or more, and no positional text. */
function mayListLinks(t: TranscludeToken): boolean {
  const args = t.getAllArgs() as ParameterToken[];
  if (args.length < 2) return false;
  for (const arg of args) if (arg.anon && arg.getValue().trim().length > 0) return false;
  return true;
}

/**
 * The structural tell of a navigation box: no positional text, at least two named values that
 * are lists of links (no letters outside their links), and no value that is prose.
 */
function linksOnly(t: TranscludeToken, scope: Scope): boolean {
  let lists = 0;
  // Each value's text outside its links: none makes it a list of links, many make it prose.
  for (const arg of t.getAllArgs() as ParameterToken[]) {
    if (arg.getValue().trim().length === 0) continue;
    if (arg.anon) return false;
    const r = render(scope, arg.lastChild.childNodes, { textOnly: true });
    let own = r.value;
    for (const l of r.links) if (l.text !== undefined) own = own.replace(l.text, ' ');
    const words = own.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    if (words >= PROSE_WORDS) return false;
    if (words === 0 && r.links.length > 0) lists++;
  }
  return lists >= 2;
}
