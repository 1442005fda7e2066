/**
 * Lines → paragraphs and formulas: a blank line ends a paragraph; a line holding only templates,
 * files and the like (`[[File:…|thumb]]`, `{{blockquote|…}}`, `{{Main|…}}`) is a block of its own;
 * a line that is one formula is a formula; a block quotation or a displayed formula inside the
 * lines of a paragraph is a block of its own, as MediaWiki renders it.
 */
import type { Part } from '../../../schema/article.js';
import type { ExtToken, HtmlToken, TranscludeToken } from '../syntax/types.js';
import { MATH } from '../../grammar.js';
import { pushAll } from '../../arrays.js';
import { TAGS, templateKind } from '../grammar.js';
import { texOf } from '../render.js';
import type { Piece } from '../render.js';

export interface Line {
  pieces: Piece[];
  /** The list marker (`*`, `#:` …) when the line is a list item. */
  marker: string | undefined;
}

export const isBlank = (line: Line): boolean =>
  line.marker === undefined && line.pieces.every((p) => (typeof p === 'string' ? p.trim().length === 0 : p.type === 'comment'));

/** Tokens that MediaWiki renders as blocks (or not at all) when they stand alone on a line. */
const BLOCK_TOKENS = new Set(['template', 'file', 'magic-word', 'comment', 'category', 'double-underscore', 'ext']);

/**
 * A line holding only templates, files and the like: their output is a block, so it ends the
 * paragraph before it and starts no paragraph with the text after it.
 */
export const isStandalone = (line: Line): boolean =>
  line.marker === undefined &&
  line.pieces.some((p) => typeof p !== 'string' && p.type !== 'comment') &&
  line.pieces.every((p) =>
    typeof p === 'string' ? p.trim().length === 0 : BLOCK_TOKENS.has(p.type) && !(p.type === 'ext' && TAGS.ref.has((p as ExtToken).name.toLowerCase())),
  );

function isBlockPiece(p: Piece): boolean {
  if (typeof p === 'string') return false;
  if (isDisplayedMath(p)) return true;
  if (p.type === 'html') return TAGS.blockHtml.has((p as HtmlToken).name.toLowerCase());
  if (p.type !== 'template') return false;
  const kind = templateKind((p as TranscludeToken).name);
  return kind.kind === 'text' && kind.rule.block === true;
}

const isMath = (p: Piece): p is ExtToken => typeof p !== 'string' && p.type === 'ext' && TAGS.math.has((p as ExtToken).name.toLowerCase());

/** `<math display="block">` (grammar/math.json `displayBlock`, as the HTML door reads it): displayed wherever it is written, even inside a line. */
function isDisplayedMath(p: Piece): boolean {
  return isMath(p) && String(p.getAttr('display') ?? '').trim().toLowerCase() === MATH.displayBlock;
}

/**
 * A line that is one formula: `<math display="block">` alone, or a `<math>` alone on a line
 * indented with `:` (the usual way to display one), which is not a list item but a formula.
 */
export function formulaOf(line: Line): ExtToken | undefined {
  if (line.marker !== undefined && !/^:+$/.test(line.marker)) return undefined;
  let math: ExtToken | undefined;
  for (const p of line.pieces) {
    if (typeof p === 'string' ? p.trim().length === 0 : p.type === 'comment') continue;
    if (math !== undefined || !isMath(p)) return undefined;
    math = p;
  }
  if (math === undefined) return undefined;
  return line.marker !== undefined || isDisplayedMath(math) ? math : undefined;
}

export function formulaPart(math: ExtToken): Part | undefined {
  const tex = texOf(math);
  return tex.length > 0 ? { type: 'formula', value: tex } : undefined;
}

/**
 * The lines of one paragraph as the blocks they make, in order: runs of pieces (each a paragraph
 * when it renders to text) and displayed formulas. A block quotation is a run of its own; a
 * block HTML tag only ends the run before it.
 */
export function paragraphBlocks(lines: readonly Line[]): (Piece[] | ExtToken)[] {
  const pieces: Piece[] = [];
  for (const l of lines) {
    if (pieces.length > 0) pieces.push(' ');
    pushAll(pieces, l.pieces);
  }
  const out: (Piece[] | ExtToken)[] = [];
  let start = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (!isBlockPiece(pieces[i]!)) continue;
    out.push(pieces.slice(start, i));
    const p = pieces[i]!;
    if (isMath(p)) out.push(p);
    else if (typeof p !== 'string' && p.type === 'template') out.push([p]);
    start = i + 1;
  }
  out.push(start === 0 ? pieces : pieces.slice(start));
  return out;
}
