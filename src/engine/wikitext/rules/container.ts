/**
 * A template that only lays out content written in one of its parameters — columns
 * ({{columns-list}}, frwiki {{Colonnes}}, dewiki {{Mehrspaltige Liste}}), a plain list — alone
 * on its line: the parameter is walked as the page's own blocks, so its list is a list of the
 * section and its lines are a paragraph, as the HTML door reads the `<div>` such a template makes.
 * Without this, the template is unknown and its content, not positional text of one line, is lost.
 *
 * Decided by grammar first (grammar/wikitext.json `containers`, each name with its parameter);
 * then by structure, for the wikis nobody listed: an unknown template whose one parameter with
 * content holds list lines (`*`, `#` at a line start) and whose other values are settings (one
 * word each: `2`, `30em`, `yes`).
 */
import type { AstText, ParameterToken, TranscludeToken } from '../syntax/types.js';
import { containerParams, templateKind } from '../grammar.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';
import { textLines } from './text.js';

export const container: WikitextRule = {
  name: 'container',
  breaks: true,
  // The cheap questions first (every template at the root is asked): its name, then its line,
  // and only then its parameters' values, which getValue writes out at each read.
  test: (n) => n.type === 'template' && mayContain(n as TranscludeToken) && aloneOnLine(n) && contentParam(n as TranscludeToken) !== undefined,
  run(n, walk) {
    const nodes = contentParam(n as TranscludeToken)!.lastChild.childNodes;
    // A named value is trimmed where the template places it, usually at a line start (hewiki
    // {{טורים|תוכן= * …}}): a list marker it begins with starts a list item, which the parser,
    // seeing it after `=` and a space, left as text.
    const first = nodes[0];
    const marker = first?.type === 'text' ? LEADING_MARKER.exec(first.data) : null;
    if (marker === null) {
      walk.nodes(nodes);
      return;
    }
    walk.marker(marker[1]!);
    textLines((first as AstText).data.slice(marker[0].length), walk);
    walk.nodes(nodes.slice(1));
  },
};

/** List markers at the very start of a value, after spaces on the same line only. */
const LEADING_MARKER = /^[^\S\n]*([*#:;]+)[^\S\n]*/;

/** A list line: a list marker at the start of the value or of one of its lines. */
const LIST_LINE = /(?:^|\n)[*#]/;
/** A setting's value: one word, no line. */
const SETTING = /^\S{0,30}$/;

/** Whether the template may be a container by its name: listed as one, or of no kind the grammar knows. */
function mayContain(t: TranscludeToken): boolean {
  return containerParams(t.name) !== undefined || templateKind(t.name).kind === 'unknown';
}

/** The parameter holding the content of a template that mayContain, when it is a container. */
function contentParam(t: TranscludeToken): ParameterToken | undefined {
  const params = containerParams(t.name);
  if (params !== undefined) {
    for (const key of params) {
      const arg = t.getArg(key);
      if (arg !== undefined && arg.getValue().trim().length > 0) return arg;
    }
    return undefined;
  }
  let content: ParameterToken | undefined;
  for (const arg of t.getAllArgs() as ParameterToken[]) {
    const value = arg.getValue();
    if (SETTING.test(value.trim())) continue;
    if (content !== undefined || !LIST_LINE.test(value)) return undefined;
    content = arg;
  }
  return content;
}
