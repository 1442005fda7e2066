/**
 * What the door's rules read of the syntax tree, token by token: the contract between the passes
 * (./stages, ./tokens) and the rules (../rules, ../render.ts, ../../<construct>/wikitext.ts). The
 * names are wikiparser-node's, whose tree ours mirrors; each token class implements its interface.
 */
import type { AstNodes, AstText, Token } from './token.js';
import type { Title } from './title.js';

export type { AstNodes, AstText, Token };

/** `{{name|…}}` (`template`) or `{{#fn:…|…}}`, `{{lc:…}}` (`magic-word`). */
export interface TranscludeToken extends Token {
  readonly type: 'template' | 'magic-word';
  /** A template's normalised title (`Template:Cite_web`); a magic word's canonical name (`invoke`, `lc`). */
  name: string;
  /** `#invoke`'s module title (`Module:M`). */
  readonly module?: string | undefined;
  getAllArgs(): ParameterToken[];
  getAnonArgs(): ParameterToken[];
  /** The parameter of this key (the last one when repeated). */
  getArg(key: string): ParameterToken | undefined;
  getValue(key: string): string | undefined;
}

export interface ParameterToken extends Token {
  readonly type: 'parameter';
  name: string;
  readonly anon: boolean;
  /** The value's wikitext, comments out, trimmed unless positional. */
  getValue(): string;
  readonly lastChild: Token;
}

export interface ExtToken extends Token {
  readonly type: 'ext';
  name: string;
  readonly selfClosing: boolean;
  readonly lastChild: Token;
  getAttr(key: string): string | true | undefined;
}

export interface HtmlToken extends Token {
  readonly type: 'html';
  name: string;
  readonly closing: boolean;
  readonly selfClosing: boolean;
  getAttr(key: string): string | true | undefined;
}

export interface LinkToken extends Token {
  readonly type: 'link' | 'category';
  name: string;
  readonly link: Title;
  readonly firstChild: Token;
}

export interface FileToken extends Token {
  readonly type: 'file' | 'gallery-image' | 'imagemap-image';
  name: string;
  readonly firstChild: Token;
}

export interface ImageParameterToken extends Token {
  readonly type: 'image-parameter';
  name: string;
}

export interface ExtLinkToken extends Token {
  readonly type: 'ext-link';
  readonly firstChild: Token;
}

export interface TableToken extends Token {
  readonly type: 'table';
  getAttr(key: string): string | true | undefined;
}

export interface TdToken extends Token {
  readonly type: 'td';
  readonly subtype: 'td' | 'th' | 'caption';
  readonly rowspan: number;
  readonly colspan: number;
  getAttr(key: string): string | true | undefined;
  readonly lastChild: Token;
}

export interface HeadingToken extends Token {
  readonly type: 'heading';
  readonly level: number;
  readonly firstChild: Token;
}

/* The token classes satisfy the interfaces above (checked by the compiler; no code is emitted). */
type Satisfies<Class extends Interface, Interface> = Class;
export type Checked = [
  Satisfies<import('./tokens/transclude.js').TranscludeToken, TranscludeToken>,
  Satisfies<import('./tokens/parameter.js').ParameterToken, ParameterToken>,
  Satisfies<import('./tokens/ext.js').ExtToken, ExtToken>,
  Satisfies<import('./tokens/html.js').HtmlToken, HtmlToken>,
  Satisfies<import('./tokens/link.js').LinkToken, LinkToken>,
  Satisfies<import('./tokens/file.js').FileToken, FileToken>,
  Satisfies<import('./tokens/file.js').ImageParameterToken, ImageParameterToken>,
  Satisfies<import('./tokens/ext-link.js').ExtLinkToken, ExtLinkToken>,
  Satisfies<import('./tokens/table.js').TableToken, TableToken>,
  Satisfies<import('./tokens/table.js').TdToken, TdToken>,
  Satisfies<import('./tokens/heading.js').HeadingToken, HeadingToken>,
];
