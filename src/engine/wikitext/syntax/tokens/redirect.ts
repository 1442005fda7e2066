/**
 * `#REDIRECT [[Target]]` at the page's start: wikiparser-node's RedirectToken (src/redirect.js)
 * and RedirectTargetToken (src/link/redirectTarget.js). The redirect keeps the spaces before and
 * after it outside its children and has no plain text; its children are `redirect-syntax` and
 * `redirect-target` (`link-target`, and a `noinclude` for a `|text`, which the wiki ignores).
 */
import type { Config } from 'wikiparser-node';
import { Token } from '../token.js';
import type { ParseState } from '../token.js';
import { normalizeTitle } from '../title.js';
import type { Title } from '../title.js';
import { SyntaxToken } from './syntax.js';

/** A token not shown: its plain text is empty (the library's `hiddenToken` mixin). */
class HiddenSyntaxToken extends SyntaxToken {
  override text(): string {
    return '';
  }
}

export class RedirectTargetToken extends Token {
  /** The target's title (set after the build, as the library sets it). */
  link: Title | undefined = undefined;

  constructor(
    target: string,
    linkText: string | undefined,
    private readonly titleConfig: Config,
    state: ParseState,
  ) {
    super('redirect-target', state);
    this.append(new SyntaxToken('link-target', state, target));
    if (linkText !== undefined) this.append(new HiddenSyntaxToken('noinclude', state, linkText));
  }

  override afterBuild(): void {
    const link = normalizeTitle(this.childNodes[0]!.toString(), 0, this.titleConfig, { decode: true });
    // Title#getTitle of a page named '': a title starting with `/` loses a final `/`.
    this.link = link.title.startsWith('/') ? { ...link, title: link.title.replace(/(.)\/$/u, '$1') } : link;
    this.name = this.link.title;
  }

  override toString(): string {
    const [target, text] = this.childNodes;
    return `[[${target!.toString()}${text === undefined ? '' : `|${text.toString()}`}]]`;
  }

  override text(): string {
    const [target, text] = this.childNodes;
    return `[[${target!.text()}${text === undefined ? '' : `|${text.text()}`}]]`;
  }
}

export class RedirectToken extends Token {
  constructor(
    private readonly pre: string,
    syntax: string,
    target: string,
    text: string | undefined,
    private readonly post: string,
    config: Config,
    state: ParseState,
  ) {
    super('redirect', state);
    this.append(new SyntaxToken('redirect-syntax', state, syntax), new RedirectTargetToken(target, text?.slice(1), config, state));
  }

  override toString(): string {
    return this.pre + super.toString() + this.post;
  }

  override text(): string {
    return '';
  }
}
