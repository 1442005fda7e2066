/**
 * An HTML tag, opening or closing: wikiparser-node's HtmlToken (src/tag/html.js, src/tag/index.js).
 * One child, the tag's `html-attrs`.
 */
import type { ParseState } from '../token.js';
import { AttributedToken } from './attributes.js';
import type { AttributesToken } from './attributes.js';

export class HtmlToken extends AttributedToken {
  declare type: 'html';
  declare name: string;
  /** The name as written. */
  readonly tag: string;
  readonly closing: boolean;
  readonly selfClosing: boolean;

  constructor(tag: string, attrs: AttributesToken, closing: boolean, selfClosing: boolean, state: ParseState) {
    super('html', state);
    this.append(attrs);
    this.tag = tag;
    this.closing = closing;
    this.selfClosing = selfClosing;
    this.name = tag.toLowerCase();
    this.voidTags = state.config.html[2];
  }

  private readonly voidTags: readonly string[];

  get attributes(): AttributesToken {
    return this.childNodes[0] as AttributesToken;
  }

  override toString(): string {
    return `<${this.closing ? '/' : ''}${this.tag}${this.childNodes[0]!.toString()}${this.selfClosing ? '/' : ''}>`;
  }

  override text(): string {
    const { closing, name } = this;
    let separator: string;
    if (this.voidTags.includes(name)) {
      if (closing && name !== 'br') return '';
      separator = '/';
    } else separator = this.selfClosing && !closing ? '/' : '';
    return `<${closing && !separator ? '/' : ''}${this.tag}${closing ? '' : this.childNodes[0]!.text()}${separator}>`;
  }
}
