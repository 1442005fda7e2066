/**
 * A template argument `{{{name|default|…}}}`: wikiparser-node's ArgToken (src/arg.js). Children:
 * `arg-name` (one text), `arg-default` (a plain token read from the HTML stage on) and a `hidden`
 * token for each further part (not shown, not read).
 */
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { SyntaxToken } from './syntax.js';
import { childString } from './parameter.js';

/** wikiparser-node's HiddenToken: wikitext that is not shown (its plain text is empty). */
class HiddenToken extends SyntaxToken {
  override text(): string {
    return '';
  }
}

export class ArgToken extends Token {
  constructor(parts: readonly string[], state: ParseState) {
    super('arg', state);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === 0) this.append(new SyntaxToken('arg-name', state, part));
      else if (i > 1) this.append(new HiddenToken('hidden', state, part));
      else {
        const t = new PlainToken('arg-default', state, part);
        t.stage = 2;
        this.append(t);
      }
    }
  }

  override afterBuild(): void {
    this.name = this.childNodes[0]!.text().trim();
  }

  override toString(): string {
    return this.serialize(false);
  }

  /** The wikitext, without comments when `skip` (the library's `toString(skip)`). */
  serialize(skip: boolean): string {
    let s = '{{{';
    const { childNodes } = this;
    for (let i = 0; i < childNodes.length; i++) s += (i > 0 ? '|' : '') + childString(childNodes[i]!, skip);
    return `${s}}}}`;
  }

  override text(): string {
    const [name, def] = this.childNodes;
    return `{{{${name!.text()}${def === undefined ? '' : `|${def.text()}`}}}}`;
  }
}
