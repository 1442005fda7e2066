/**
 * Runs a preset of rules over the article body in document order. Text and inline elements gather
 * into a run that becomes one implicit paragraph when a block (a rule that `breaks`) or the end of
 * the enclosing container ends it.
 */
import type { Part } from '../../schema/article.js';
import type { AnyNode, Element } from '../dom.js';
import { childNodes, isElement, isText } from '../dom.js';
import type { Context } from '../context.js';
import { SectionTree } from '../section-tree.js';
import { runElement } from '../source-positions.js';
import type { Collector } from '../collector.js';
import { paragraphOf } from './paragraph.js';
import type { Rule, Walk } from './types.js';

export class Walker implements Walk {
  readonly tree = new SectionTree();
  /** Inline nodes waiting to become one implicit paragraph. */
  private pending: AnyNode[] = [];
  /** How many not-in-abstract boxes enclose the walk's position. */
  private outside = 0;

  constructor(
    readonly ctx: Context,
    private readonly out: Collector,
    private readonly rules: readonly Rule[],
  ) {}

  get inAbstract(): boolean {
    return this.outside === 0 && this.tree.inLead;
  }

  get inBody(): boolean {
    return this.outside === 0 && !this.tree.inLead && !this.tree.skipping;
  }

  children(el: Element, depth: number): void {
    for (const child of childNodes(el)) this.node(child, depth + 1);
    this.flush(depth);
  }

  node(node: AnyNode, depth: number): void {
    if (!isElement(node)) {
      if (isText(node)) this.pending.push(node);
      return;
    }
    for (const rule of this.rules) {
      if (!rule.test(node, this, depth)) continue;
      if (rule.breaks) this.flush(depth);
      if (rule.run(node, this, this.out, depth) !== false) return;
    }
  }

  inline(node: AnyNode): void {
    this.pending.push(node);
  }

  block(part: Part, source: Element | undefined): void {
    if (source !== undefined) this.ctx.mark?.(part, source);
    this.tree.block(part);
  }

  outsideAbstract(fn: () => void): void {
    this.outside++;
    try {
      fn();
    } finally {
      this.outside--;
    }
  }

  /** The pending run of inline nodes becomes one paragraph. */
  flush(depth: number): void {
    if (this.pending.length === 0) return;
    const nodes = this.pending;
    this.pending = [];
    const source = this.ctx.mark === undefined ? undefined : runElement(nodes);
    paragraphOf(nodes, source, this, this.out, depth);
  }
}
