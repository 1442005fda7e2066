/**
 * Tables: wikiparser-node's TableToken, TrToken and TdToken (src/table/*.js). Each starts with its
 * `table-syntax` and `table-attrs`; a table then holds rows, cells and `table-inter` runs (text
 * between rows) and, when closed, its closing `table-syntax`; a row holds cells and `table-inter`;
 * a cell holds its content, a plain `td-inner` read from stage 4 on.
 */
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { AttributedToken, AttributesToken } from './attributes.js';
import { SyntaxToken } from './syntax.js';

/** A table, row or cell: a syntax and attributes first (the library's TableBaseToken). */
abstract class TableBaseToken extends AttributedToken {
  constructor(type: 'table' | 'tr' | 'td', syntax: string, attr: string, state: ParseState) {
    super(type, state);
    this.append(new SyntaxToken('table-syntax', state, syntax), new AttributesToken(attr, 'table-attrs', type, state));
  }

  get attributes(): AttributesToken {
    return this.childNodes[1] as AttributesToken;
  }
}

export class TableToken extends TableBaseToken {
  declare type: 'table';

  constructor(syntax: string, attr: string, state: ParseState) {
    super('table', syntax, attr, state);
  }

  /** Whether the table has its closing syntax. */
  get closed(): boolean {
    return this.lastChild?.type === 'table-syntax';
  }

  /** The parse's closing: `|}` (with the line break and spaces before it) as the last child. */
  close(syntax: string, state: ParseState): void {
    if (this.lastChild?.type !== 'table-syntax') this.append(new SyntaxToken('table-syntax', state, syntax));
  }
}

export class TrToken extends TableBaseToken {
  declare type: 'tr';

  constructor(syntax: string, attr: string, state: ParseState) {
    super('tr', syntax, attr, state);
  }

  /** The library's: a row's text is empty unless the row spans several lines. */
  override text(): string {
    const str = super.text();
    return str.trim().includes('\n') ? str : '';
  }
}

const INNER_SYNTAX = /\||\0\d+!\x7F/u;
const NO_ATTR = /\[\[|-\{/u;
const MARKER = /\0(\d+)\D\x7F/gu;

export type TdSubtype = 'td' | 'th' | 'caption';

/** The library's typing of a cell's `getAttr`: `rowspan` and `colspan` are numbers. */
export type TdAttrGetter<T extends string> = T extends 'rowspan' | 'colspan' ? number : string | true | undefined;

export class TdToken extends TableBaseToken {
  declare type: 'td';
  /** The `|` (or `{{!}}`) between the cell's attributes and its content; '' without attributes. */
  innerSyntax = '';
  /** The tokens, while `innerSyntax` still holds a marker (`{{!}}`). */
  private accum: readonly Token[] | undefined = undefined;

  constructor(syntax: string, inner: string, state: ParseState) {
    let innerSyntax = INNER_SYNTAX.exec(inner);
    let attr = innerSyntax ? inner.slice(0, innerSyntax.index) : '';
    if (NO_ATTR.test(attr)) {
      innerSyntax = null;
      attr = '';
    }
    super('td', syntax, attr, state);
    if (innerSyntax) {
      this.innerSyntax = innerSyntax[0];
      if (this.innerSyntax.includes('\0')) this.accum = state.accum;
    }
    const innerToken = new PlainToken('td-inner', state, innerSyntax ? inner.slice(innerSyntax.index + this.innerSyntax.length) : inner);
    innerToken.stage = 4;
    this.append(innerToken);
  }

  override afterBuild(): void {
    if (this.accum !== undefined) {
      const accum = this.accum;
      this.innerSyntax = this.innerSyntax.replace(MARKER, (_, i: string) => String(accum[Number(i)]));
      this.accum = undefined;
    }
  }

  /** Whether the cell starts a line (`|`, `!`, `|+`), not after `||` or `!!`. */
  isIndependent(): boolean {
    return this.childNodes[0]!.text().startsWith('\n');
  }

  /** `td`, `th` or `caption`: from the syntax, or the previous cell's on the same line. Read once built, then kept (the cells never change). */
  get subtype(): TdSubtype {
    return (this.cachedSubtype ??= this.computeSubtype());
  }

  private cachedSubtype: TdSubtype | undefined = undefined;

  private computeSubtype(): TdSubtype {
    const syntax = this.childNodes[0]!.text();
    const char = syntax.slice(-1);
    const own: TdSubtype = char === '!' ? 'th' : char === '+' ? 'caption' : 'td';
    if (syntax.startsWith('\n')) return own;
    const prev = this.previousSibling;
    if (!(prev instanceof TdToken)) return own;
    return own === 'th' ? 'th' : prev.subtype;
  }

  get rowspan(): number {
    return this.getAttr('rowspan');
  }

  get colspan(): number {
    return this.getAttr('colspan');
  }

  /** The cell's content, `td-inner`: always the last child. */
  override get lastChild(): Token {
    return this.childNodes[2] as Token;
  }

  override getAttr<T extends string>(key: T): TdAttrGetter<T> {
    const k = key.trim().toLowerCase();
    const value = this.attributes.getAttr(k);
    return (k === 'rowspan' || k === 'colspan' ? Number.parseInt(String(value)) || 1 : value) as TdAttrGetter<T>;
  }

  override toString(): string {
    const [syntax, attr, inner] = this.childNodes;
    return syntax!.toString() + attr!.toString() + this.innerSyntax + inner!.toString();
  }

  override text(): string {
    const [syntax, attr, inner] = this.childNodes;
    return syntax!.text() + attr!.text() + this.innerSyntax + inner!.text();
  }
}
