/**
 * Internal links: wikiparser-node's LinkBaseToken (src/link/base.js) and its LinkToken (`link`)
 * and CategoryToken (`category`). Children: the `link-target` (an atom: its text, markers of
 * templates and comments built into tokens) and, after a `|`, the `link-text`, a plain token read
 * only by the converter stage (the links stage already read its quotes). The title is read once
 * the tree is built (`afterBuild`), as the library does: `link` is the Title, `name` its `title`.
 */
import type { Config } from 'wikiparser-node';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';
import { Token, buildFromRaw } from '../token.js';
import type { ParseState } from '../token.js';
import { normalizeTitle } from '../title.js';
import type { Title } from '../title.js';
import { SyntaxToken } from './syntax.js';

/** The converter stage is the only one that reads a link's text (wikiparser-node's `MAX_STAGE - 1`). */
export const LAST_STAGE = 10;

/** What links, categories, files and gallery images share. */
export abstract class LinkBaseToken extends Token {
  /** The `|` between the target and the rest, or the marker of a `{{!}}` until the build. */
  delimiter: string;
  /** Whether `[[`…`]]` wrap the token (not for a gallery's images). */
  bracket = true;
  protected readonly state: ParseState;
  /** The configuration it was made with (an extension tag's content has its own). */
  protected readonly linkConfig: Config;

  /**
   * The target's title when the stage that found the token read it from a target without
   * markers: the same as read from the built tree, so it is not read twice.
   */
  protected known: Title | undefined;

  constructor(type: TokenTypes, link: string, linkText: string | undefined, state: ParseState, delimiter = '|', known?: Title) {
    super(type, state);
    this.known = known;
    this.state = state;
    this.linkConfig = state.config;
    this.append(new SyntaxToken('link-target', state, link));
    if (linkText !== undefined) {
      const inner = new Token('link-text', state, linkText);
      inner.stage = LAST_STAGE;
      this.append(inner);
    }
    this.delimiter = delimiter;
  }

  /** The title, read from the built target (wikiparser-node's `getTitle`). */
  protected readTitle(): Title {
    return normalizeTitle(this.childNodes[0]!.text(), 0, this.linkConfig, { decode: true, selfLink: true });
  }

  /** The delimiter as wikitext, and the title (`link`, `name`) read from the built tree. */
  protected settle(): Title {
    if (this.delimiter.includes('\0')) this.delimiter = buildFromRaw(this.delimiter, this.state.accum).map(String).join('');
    const title = this.known ?? this.readTitle();
    this.known = undefined;
    if (this.type !== 'ext-inner') this.name = title.title;
    return title;
  }

  override toString(): string {
    let s = '';
    const { childNodes } = this;
    for (let i = 0; i < childNodes.length; i++) s += (i === 0 ? '' : this.delimiter) + childNodes[i]!.toString();
    return this.bracket ? `[[${s}]]` : s;
  }

  override text(): string {
    let s = '';
    const { childNodes } = this;
    for (let i = 0; i < childNodes.length; i++) s += (i === 0 ? '' : '|') + childNodes[i]!.text();
    return this.bracket ? `[[${s}]]` : s;
  }
}

/** `[[Target|text]]`: wikiparser-node's LinkToken. */
export class LinkToken extends LinkBaseToken {
  /** The target's title, once the tree is built. */
  link!: Title;

  constructor(link: string, linkText: string | undefined, state: ParseState, delimiter?: string, known?: Title, type: 'link' | 'category' = 'link') {
    super(type, link, linkText, state, delimiter, known);
  }

  override afterBuild(): void {
    this.link = this.settle();
  }
}

/** `[[Category:Name|sort key]]`: wikiparser-node's CategoryToken (a sibling of LinkToken there); the sort key is its `link-text`. */
export class CategoryToken extends LinkToken {
  constructor(link: string, linkText: string | undefined, state: ParseState, delimiter?: string, known?: Title) {
    super(link, linkText, state, delimiter, known, 'category');
  }
}
