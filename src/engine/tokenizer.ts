/**
 * htmlparser2's `Tokenizer` with its one inner loop, `fastForwardTo` (the skip to the next `<` of
 * text, the closing quote of an attribute value, the `>` of an end tag or comment), done by
 * `String.prototype.indexOf` instead of a `charCodeAt` loop. The tokenizer calls it through
 * `this`, so a subclass's method takes its place; what it returns and where it leaves `index` are
 * the original's exactly (below). indexOf runs in native code: on the corpus's text and attribute
 * values (data-mw's JSON runs to kilobytes) the loop read about one character per 3 ns.
 *
 * The method is private in htmlparser2's types, hence the untyped view of the instance here.
 */
import { Tokenizer } from 'htmlparser2';

/** The tokenizer's fields that `fastForwardTo` reads and moves. */
interface Cursor {
  buffer: string;
  offset: number;
  index: number;
}

/**
 * Moves `index` to the next `c` after it and returns true; with none, to the last character of
 * the buffer (the tokenizer's main loop steps past it) and returns false. As htmlparser2 12's own.
 */
function fastForwardTo(this: Cursor, c: number): boolean {
  const { buffer, offset } = this;
  const at = buffer.indexOf(String.fromCharCode(c), this.index + 1 - offset);
  if (at >= 0) {
    this.index = at + offset;
    return true;
  }
  this.index = buffer.length + offset - 1;
  return false;
}

export class ForwardingTokenizer extends Tokenizer {}
Object.defineProperty(ForwardingTokenizer.prototype, 'fastForwardTo', { value: fastForwardTo, writable: true, configurable: true });
