/**
 * The shape of the wikitext front door's block walk, the HTML door's (../walk/types.ts) over
 * the syntax tree (./syntax, shaped like wikiparser-node's): an ordered preset of rules (./preset.ts), each `{ name, test, run }`,
 * tried in order on every top-level node of the page (and of a layout table's cells); the first
 * whose `test` holds runs. What a rule finds goes two ways, both explicit: blocks into the section
 * tree (`walk.block`), everything else (infoboxes, tables, the description, the lead) into the
 * collector passed to `run` (../collector.ts); footnote uses to the reference pass (`walk.commit`).
 */
import type { Part } from '../../schema/article.js';
import type { AstNodes } from './syntax/types.js';
import type { Collector } from '../collector.js';
import type { SectionTree } from '../section-tree.js';
import type { Found } from './found.js';
import type { Piece } from './render.js';
import type { Scope } from './scope.js';

export interface WikitextRule {
  /** For docs and test names; unique in a preset. */
  readonly name: string;
  /**
   * Whether the node ends the line it is on and the run of lines before it (which become their
   * paragraphs and lists first): true for blocks; false for what joins the line.
   */
  readonly breaks: boolean;
  test(node: AstNodes, walk: WikitextWalk): boolean;
  run(node: AstNodes, walk: WikitextWalk, out: Collector): void;
}

/** What rules see of the walk. */
export interface WikitextWalk {
  readonly ctx: Scope;
  readonly tree: SectionTree;
  /** Walks nodes as top-level content (a layout table's cell), then ends their lines. */
  nodes(nodes: readonly AstNodes[]): void;
  /** The nodes after the current one, through `n` (one of its siblings), are the current rule's: the walk passes over them. */
  skipThrough(n: AstNodes): void;
  /** Adds a piece to the current line. */
  piece(p: Piece): void;
  /** Ends the current line. */
  endLine(): void;
  /** Adds a list marker (`*`, `#`, `:`, `;`) to the current line. */
  marker(m: string): void;
  /** The current line's list marker, when it is a list item. */
  readonly lineMarker: string | undefined;
  /** Adds a block to the open section (not inside a dropped boilerplate section). */
  block(part: Part): void;
  /** Commits what a rendering kept by the caller found: footnote uses, infoboxes, the description. */
  commit(found: readonly Found[]): void;
}
