/**
 * The shape of the HTML front door's block walk: an ordered preset of rules (./preset.ts), each
 * `{ name, test, run }`, tried in order on every element at block level; the first whose `test`
 * holds runs. What a rule finds goes two ways, both explicit: blocks into the section tree
 * (`walk.block`), everything else (infoboxes, tables, references, the description, the lead) into
 * the collector passed to `run`.
 */
import type { Part } from '../../schema/article.js';
import type { AnyNode, Element } from '../dom.js';
import type { Context } from '../context.js';
import type { SectionTree } from '../section-tree.js';
import type { Collector } from '../collector.js';

export interface Rule {
  /** For docs and test names; unique in a preset. */
  readonly name: string;
  /**
   * Whether the element ends the run of inline nodes before it (an implicit paragraph): true for
   * blocks; false for what is dropped or set aside without splitting a paragraph (noise, a
   * reference inside a sentence) and for inline content itself.
   */
  readonly breaks: boolean;
  test(el: Element, walk: Walk, depth: number): boolean;
  /**
   * Handles the element. Returning `false` declines after all (the test was a cheap guess the
   * element did not bear out): the walk goes on with the next rule.
   */
  run(el: Element, walk: Walk, out: Collector, depth: number): void | false;
}

/** What rules see of the walk. */
export interface Walk {
  readonly ctx: Context;
  readonly tree: SectionTree;
  /** True while blocks met feed the abstract: in the lead, outside any not-in-abstract box. */
  readonly inAbstract: boolean;
  /** True in the sections below the lead (a kept one), outside any not-in-abstract box. */
  readonly inBody: boolean;
  /** Walks an element's children as blocks (one level deeper), then ends their open paragraph. */
  children(el: Element, depth: number): void;
  /** Adds a node to the run of inline nodes that becomes the next implicit paragraph. */
  inline(node: AnyNode): void;
  /** Adds a block to the open section, marking its source element when hints were asked for. */
  block(part: Part, source: Element | undefined): void;
  /** Runs `fn` with `inAbstract` false: what it walks stays section content only. */
  outsideAbstract(fn: () => void): void;
}
