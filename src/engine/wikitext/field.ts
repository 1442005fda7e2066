/**
 * An infobox value → a `field` part the way the HTML door reads the rendered cell
 * (infobox/html.ts `fieldPart`): a value holding a list — wiki list lines, a list template
 * ({{plainlist}}, {{ubl}}, {{collapsible list}}: grammar/wikitext.json rules with `list`) or lines
 * separated by <br> — becomes one `list_item` per item, a nested list the `list_item`s of its item,
 * and a line of text before a list ("By race:") an item of its own taking that list's items as its
 * sub-items. `value` joins the items with "; " as the HTML door does.
 */
import type { Citation, Link, Part } from '../../schema/article.js';
import type { AstNodes, HtmlToken, TranscludeToken } from './syntax/types.js';
import { TAGS, moduleRule, templateKind } from './grammar.js';
import { linkTarget } from './links.js';
import type { TextRule } from './grammar.js';
import { render } from './render.js';
import type { Piece } from './render.js';
import type { Scope } from './scope.js';
import { keep } from './found.js';
import type { Found } from './found.js';
import { pushAll } from '../arrays.js';
import { gatherItems, itemPart, itemsText, makesList } from '../item-text.js';

interface Line {
  pieces: Piece[];
  /** The list marker (`*`, `**`, `#:` …); undefined for a line of text. */
  marker: string | undefined;
}

/** Beyond this many list templates inside one another, the rest is read as one line. */
const MAX_NESTING = 20;

/** The list rule of a template or {{#invoke:}} call, when it renders a list. */
function listRule(t: TranscludeToken): TextRule | undefined {
  let rule: TextRule | undefined;
  if (t.type === 'magic-word') rule = t.module === undefined ? undefined : moduleRule(t.module);
  else {
    const kind = templateKind(t.name);
    rule = kind.kind === 'text' ? kind.rule : undefined;
  }
  return rule?.list === true ? rule : undefined;
}

class LineReader {
  readonly lines: Line[] = [];
  private line: Line = { pieces: [], marker: undefined };
  /** Whether any list (a marker or a list template) was met: then the value is a list. */
  listy = false;

  read(nodes: readonly Piece[], base: string, depth: number): void {
    for (const n of nodes) this.node(n, base, depth);
  }

  end(): void {
    if (this.line.pieces.length > 0 || this.line.marker !== undefined) this.lines.push(this.line);
    this.line = { pieces: [], marker: undefined };
  }

  private node(n: Piece, base: string, depth: number): void {
    if (typeof n === 'string' || n.type === 'text') {
      const parts = (typeof n === 'string' ? n : n.data).split('\n');
      for (let i = 0; i < parts.length; i++) {
        if (i > 0) this.end();
        if (parts[i]!.length > 0) this.line.pieces.push(parts[i]!);
      }
      return;
    }
    switch (n.type) {
      case 'list':
        this.listy = true;
        this.line.marker = (this.line.marker ?? base) + String(n).trim();
        return;
      case 'html':
        if (TAGS.lineBreak.has((n as HtmlToken).name.toLowerCase())) this.end();
        else this.line.pieces.push(n);
        return;
      case 'template':
      case 'magic-word': {
        const t = n as TranscludeToken;
        const rule = depth < MAX_NESTING ? listRule(t) : undefined;
        if (rule === undefined) {
          this.line.pieces.push(n);
          return;
        }
        this.listy = true;
        this.template(t, rule, base, depth);
        return;
      }
      default:
        this.line.pieces.push(n);
    }
  }

  /** A list template: its title as a line, then its items one level below the current line. */
  private template(t: TranscludeToken, rule: TextRule, base: string, depth: number): void {
    const inner = this.line.marker ?? base;
    const title = rule.title === undefined ? undefined : t.getArg(rule.title);
    if (title !== undefined && title.getValue().trim().length > 0) {
      this.end();
      this.line.marker = inner.length > 0 ? inner : undefined;
      this.read(title.lastChild.childNodes, inner, depth + 1);
    }
    this.end();
    if (rule.all !== undefined) {
      for (const arg of t.getAnonArgs()) {
        if (arg.getValue().trim().length === 0) continue;
        this.line.marker = `${inner}*`;
        this.read(arg.lastChild.childNodes, `${inner}*`, depth + 1);
        this.end();
      }
      return;
    }
    for (const key of rule.param ?? []) {
      const arg = t.getArg(key);
      if (arg === undefined || arg.getValue().trim().length === 0) continue;
      this.read(arg.lastChild.childNodes, inner, depth + 1);
      break;
    }
    this.end();
  }
}

const isBlankLine = (line: Line): boolean =>
  line.pieces.every((p) => (typeof p === 'string' ? p.trim().length === 0 : p.type === 'comment'));

interface Node {
  part: Part;
  depth: number;
}

/** The items of the lines: list lines nest by marker length, a text line leads in the list after it. */
function itemsOf(lines: readonly Line[], scope: Scope, depth: number, found: Found[]): Part[] {
  const out: Part[] = [];
  let leadIn: Part | undefined;
  /** Open list items, the deepest last; their depth is their marker's length. */
  let stack: Node[] = [];
  for (const line of lines) {
    const r = render(scope, line.pieces, {}, depth + 1);
    keep(found, r.found);
    const part = itemPart(r);
    if (line.marker === undefined) {
      stack = [];
      if (r.value.length === 0) {
        // A marker after a list cites the item before it.
        const last = out[out.length - 1];
        if (last !== undefined && r.citations.length > 0) pushAll((last.citations ??= []), r.citations);
        continue;
      }
      out.push(part);
      leadIn = part;
      continue;
    }
    const level = line.marker.length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= level) stack.pop();
    const parent = stack[stack.length - 1]?.part ?? leadIn;
    if (r.value.length === 0) {
      // An item that is only a sub-list ("*:" indent) lends its items to the list.
      continue;
    }
    if (parent === undefined) out.push(part);
    else (parent.has_parts ??= []).push(part);
    stack.push({ part, depth: level });
  }
  return out;
}

/**
 * The field of an infobox parameter (or a row of a `{| class="infobox"` table); undefined when
 * empty. What its readings find goes to `found`.
 */
export function fieldOf(name: string | undefined, nodes: readonly Piece[], scope: Scope, depth: number, found: Found[]): Part | undefined {
  const reader = new LineReader();
  reader.read(nodes, '', 0);
  reader.end();
  const lines = reader.lines.filter((l) => !isBlankLine(l));
  const field: Part = { type: 'field' };
  if (name !== undefined && name.length > 0) field.name = name;
  const piped = lines.length === 1 ? pipedLink(nodes) : undefined;
  if (piped !== undefined) {
    const r = render(scope, piped.label, {}, depth + 1);
    keep(found, r.found);
    if (r.value.length === 0) return undefined;
    field.value = r.value;
    const target = linkTarget(piped.target, scope.site, scope.language, false);
    const links = target.kind === 'url' ? [{ url: target.url, text: r.value }, ...r.links] : r.links;
    if (links.length > 0) field.links = links;
    if (r.citations.length > 0) field.citations = r.citations;
    return field;
  }
  if (lines.length < 2 && !(reader.listy && lines.length > 0)) {
    const r = render(scope, nodes, {}, depth + 1);
    keep(found, r.found);
    if (r.value.length === 0) return undefined;
    field.value = r.value;
    if (r.links.length > 0) field.links = r.links;
    if (r.citations.length > 0) field.citations = r.citations;
    return field;
  }
  // Rendered once, line by line: rendering twice would number its footnotes twice.
  const items = itemsOf(lines, scope, depth, found);
  if (items.length === 0) return undefined;
  const links: Link[] = [];
  const citations: Citation[] = [];
  gatherItems(items, links, citations);
  field.value = itemsText(items);
  if (makesList(items)) field.has_parts = items;
  if (links.length > 0) field.links = links;
  if (citations.length > 0) field.citations = citations;
  return field;
}

/**
 * A value written `Target{{!}}Label` (ruwiki {{НП|вид региона=Земли Германии{{!}}Земля}}): the
 * template puts the value inside a link, where `{{!}}` is the link's pipe, so the page shows the
 * label, linked to the target. Only a plain-text target before a single `{{!}}` reads so; any
 * other `{{!}}` (a table cell built in a parameter) is left to the renderer.
 */
function pipedLink(nodes: readonly Piece[]): { target: string; label: readonly Piece[] } | undefined {
  let pipe = -1;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (typeof n === 'string' || n.type === 'text') continue;
    if (n.type !== 'magic-word' && n.type !== 'template') return undefined;
    if ((n as TranscludeToken).name !== '!' || pipe !== -1) return undefined;
    pipe = i;
  }
  if (pipe <= 0 || pipe === nodes.length - 1) return undefined;
  const target = nodes.slice(0, pipe).map(String).join('').trim();
  if (target.length === 0 || /[[\]{}<>|\n]/.test(target)) return undefined;
  return { target, label: nodes.slice(pipe + 1) };
}
