/**
 * Internal links: wikiparser-node's LinkBaseToken (src/link/base.js) and its LinkToken (`link`)
 * and CategoryToken (`category`). Children: the `link-target` (an atom: its text, markers of
 * templates and comments built into tokens) and, after a `|`, the `link-text`, a plain token read
 * only by the converter stage (the links stage already read its quotes). The title is read once
 * the tree is built (`afterBuild`), as the library does: `link` is the Title, `name` its `title`.
 */
import type { Config } from 'wikiparser-node';
import type { TokenTypes } from 'wikiparser-node/dist/base.js';
import { PlainToken, Token, buildFromRaw, runStage, tidy } from '../token.js';
import type { AstNodes, ParseState, Stage } from '../token.js';
import { normalizeTitle, withMain } from '../title.js';
import type { Title, TitleOptions } from '../title.js';
import { SyntaxToken } from './syntax.js';

/** The converter stage is the only one that reads a link's text (wikiparser-node's `MAX_STAGE - 1`). */
export const LAST_STAGE = 10;

/**
 * The stages, which the tokens that read text again (a gallery's image, a title once built) run:
 * registered by the driver (../parse.ts), since a token importing ../stages/index.ts would close
 * an import cycle (the stages make the tokens).
 */
let rereadStages: readonly Stage[] = [];
export function setRereadStages(stages: readonly Stage[]): void {
  rereadStages = stages;
}

/** Runs stages 0 to `to - 1` on one plain token only (wikiparser-node's `parseOnce` on a token that is not the page). */
export function rereadToken(token: PlainToken, state: ParseState, to: number): void {
  for (let n = 0; n < to; n++) rereadStages[n]!(token, state);
}

const REPARSE = /[<{[=\0\x7F]/u;
const MARKER = /\0(\d+)[^\x7F]*\x7F/gu;

/** A marker string back to its wikitext, markers inside the marked tokens too. */
function restore(s: string, accum: readonly Token[]): string {
  return s.replace(MARKER, (_, i: string) => restore(String(accum[Number(i)] as AstNodes), accum));
}

/**
 * A title read from a built tree's text, as wikiparser-node's `normalizeTitle` without
 * `halfParsed`: a text with `<`, `{`, `[` or `=` is first read by stages 0 and 1 (comments, tags,
 * templates, headings), so that the title sees markers where they were (a `{{!}}` or a heading
 * makes it invalid, a template does not), and its main part and fragment are written back.
 */
export function reparsedTitle(text: string, defaultNs: number, config: Config, options: TitleOptions): Title {
  if (!REPARSE.test(text)) return normalizeTitle(text, defaultNs, config, options);
  const state: ParseState = { config, accum: [], include: false };
  const root = new PlainToken('root', state, tidy(text));
  state.accum.pop();
  const { accum } = state;
  for (let n = 0; n < 2; n++) runStage(rereadStages[n]!, n, root, state, config);
  const title = normalizeTitle(root.raw!, defaultNs, config, options);
  if (!title.main.includes('\0') && !title.fragment?.includes('\0')) return title;
  const fragment = title.fragment === undefined ? undefined : restore(title.fragment, accum);
  return { ...withMain(title, restore(title.main, accum), config), fragment };
}

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
    // Appended at once: one children array of their number (Token#appendAll).
    const target = new SyntaxToken('link-target', state, link);
    if (linkText === undefined) this.append(target);
    else {
      const inner = new PlainToken('link-text', state, linkText);
      inner.stage = LAST_STAGE;
      this.append(target, inner);
    }
    this.delimiter = delimiter;
  }

  /** The title, read from the built target (wikiparser-node's `getTitle`). */
  protected readTitle(): Title {
    return reparsedTitle(this.childNodes[0]!.text(), 0, this.linkConfig, { decode: true, selfLink: true });
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
  declare type: 'link' | 'category';
  declare name: string;

  /** Typed for the door: this token's first child is always a token. */
  override get firstChild(): Token {
    return this.childNodes[0] as Token;
  }

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
