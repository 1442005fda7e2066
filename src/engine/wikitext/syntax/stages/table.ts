/**
 * Stage 3, tables: wikiparser-node's parser/table.js and its `#parseTable` wrapper (src/index.js).
 * Line by line, with a stack of the open tables, rows and cells: `{|` (or a template standing for
 * it) opens a table, in a cell or at the top; `|}` closes the innermost table; `|-` opens a row;
 * `|`, `!`, `|+` open cells, split at `||` (and `!!` after `!`). Other lines go into the open cell,
 * or between rows as a `table-inter` token. Rows and cells are the table's children, not markers.
 */
import type { Stage } from '../token.js';
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { isExcluded } from '../tokens/attributes.js';
import { ddToken } from '../tokens/list.js';
import { TableToken, TdToken, TrToken } from '../tokens/table.js';

type Top = TableToken | TrToken | TdToken;

const SPACES = /^(?:\s|\0\d+[cno]\x7F)*/u;
const START = /^(:*)((?:\s|\0\d+[cn]\x7F)*)(\{\||\{(?:\0\d+[cn]\x7F)*\0\d+!\x7F|\0\d+\{\x7F)(.*)$/u;
const PART = /^(?:(\|\}|\0\d+!\x7F\}|\0\d+\}\x7F)|(\|-+|\0\d+!\x7F-+|\0\d+-\x7F-*)(?!-)|(!|(?:\||\0\d+!\x7F)\+?))(.*)$/u;
const TH_SPLIT = /!!|(?:\||\0\d+!\x7F){2}|\0\d+\+\x7F/gu;
const TD_SPLIT = /(?:\||\0\d+!\x7F){2}|\0\d+\+\x7F/gu;

/** The library's `isTr`: a table or row whose last child is not a plain run of text. */
const isTr = (top: Top): boolean => (top.lastChild as Token).raw === undefined;

/** Appends a child to a table or row, a cell after a row going into that row (the library's `TableToken#insertAt`). */
function insert(top: TableToken | TrToken, child: Token): void {
  const previous = top.lastChild;
  if (child instanceof TdToken && previous instanceof TrToken) previous.append(child);
  else top.append(child);
}

export const parseTable: Stage = (token, state) => {
  if (isExcluded(state.config, 'table')) return;
  const data = token.raw!;
  // Unchanged unless a table starts in it, which needs a `{` (`{|` or a template's marker).
  if (!data.includes('{')) return;
  token.raw = parseTableText(token, data, state);
};

function parseTableText(token: Token, data: string, state: ParseState): string {
  const { accum } = state;
  const stack: Top[] = [];
  const lines = data.split('\n');
  const { type } = token;
  let out = type === 'root' || type === 'parameter-value' || (type === 'ext-inner' && token.name === 'poem') ? '' : `\n${lines.shift()!}`;
  let top: Top | undefined;
  const push = (str: string, topToken: Top | undefined): void => {
    if (topToken === undefined) {
      out += str;
      return;
    }
    if (isTr(topToken)) {
      const inter = new PlainToken('table-inter', state, str);
      inter.stage = 3;
      insert(topToken as TableToken | TrToken, inter);
    } else {
      const last = topToken.lastChild as Token;
      last.raw += str;
    }
  };
  for (const outLine of lines) {
    top = stack.pop();
    const spaces = SPACES.exec(outLine)![0];
    const line = outLine.slice(spaces.length);
    const matchesStart = START.exec(line);
    if (matchesStart) {
      while (top !== undefined && !(top instanceof TdToken)) top = stack.pop();
      const indent = matchesStart[1]!;
      if (indent) ddToken(state, indent);
      push(`\n${spaces}${indent && `\0${accum.length - 1}d\x7F`}${matchesStart[2]!}\0${accum.length}b\x7F`, top);
      if (top !== undefined) stack.push(top);
      stack.push(new TableToken(matchesStart[3]!, matchesStart[4]!, state));
      continue;
    } else if (top === undefined) {
      out += `\n${outLine}`;
      continue;
    }
    const matches = PART.exec(line);
    if (!matches) {
      push(`\n${outLine}`, top);
      stack.push(top);
      continue;
    }
    const [, closing, row, cell] = matches;
    const attr = matches[4]!;
    if (closing !== undefined) {
      while (!(top instanceof TableToken)) top = stack.pop()!;
      top.close(`\n${spaces}${closing}`, state);
      push(attr, stack[stack.length - 1]);
    } else if (row !== undefined) {
      if (top instanceof TdToken) top = stack.pop()!;
      if (top instanceof TrToken) top = stack.pop()!;
      const tr = new TrToken(`\n${spaces}${row}`, attr, state);
      stack.push(top, tr);
      insert(top as TableToken, tr);
    } else {
      if (top instanceof TdToken) top = stack.pop()!;
      const parent = top as TableToken | TrToken;
      const regex = cell === '!' ? TH_SPLIT : TD_SPLIT;
      regex.lastIndex = 0;
      let lastIndex = 0;
      let lastSyntax = `\n${spaces}${cell!}`;
      let mt = regex.exec(attr);
      while (mt) {
        insert(parent, new TdToken(lastSyntax, attr.slice(lastIndex, mt.index), state));
        ({ lastIndex } = regex);
        lastSyntax = mt[0];
        mt = regex.exec(attr);
      }
      const td = new TdToken(lastSyntax, attr.slice(lastIndex), state);
      insert(parent, td);
      stack.push(parent, td);
    }
  }
  return out.slice(1);
}
