/**
 * PLACEHOLDER until the attributes port lands (helper branch syn-block): an extension tag's
 * attributes as one dirty text. Replaced by that branch's module at the merge.
 */
import { AstText, Token } from '../token.js';
import type { ParseState } from '../token.js';

export class AttributesToken extends Token {
  constructor(text: string | undefined, type: 'ext-attrs' | 'html-attrs' | 'table-attrs', name: string, state: ParseState) {
    super(type, state);
    this.name = name;
    if (text !== undefined && text.length > 0) this.append(new AstText(text));
  }

  getAttr(key: string): string | true | undefined {
    const m = new RegExp(String.raw`(?:^|\s)${key}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`, 'iu').exec(String(this));
    return m === null ? undefined : (m[1] ?? m[2] ?? m[3]);
  }
}
