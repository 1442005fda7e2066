/**
 * Math, one rule everywhere (to be filled in): a displayed formula is a `formula` Part whose value
 * is its TeX; an inline formula is its TeX in the running text.
 */
import type { Part } from '../schema/article.js';
import type { Element } from './dom.js';

/** A formula displayed as its own block (not inside a line of text). */
export function isBlockFormula(_el: Element): boolean {
  return false;
}

/** The `formula` Part of a displayed formula, or undefined when it carries no TeX. */
export function formulaPart(_el: Element): Part | undefined {
  return undefined;
}
