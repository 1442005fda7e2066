/**
 * List markers at the start of a line (`*`, `#`, `:`, `;`) make the line a list item; `;term :
 * definition` on one line makes the definition an item of its own (rules/list.ts nests them).
 */
import type { WikitextRule } from '../types.js';

export const listMarker: WikitextRule = {
  name: 'list-marker',
  breaks: false,
  test: (n) => n.type === 'list' || n.type === 'dd',
  run(n, walk) {
    if (n.type === 'list') {
      walk.marker(String(n).trim());
      return;
    }
    const marker = walk.lineMarker;
    if (marker === undefined) {
      walk.piece(' ');
      return;
    }
    walk.endLine();
    walk.marker(`${marker.slice(0, -1)}:`);
  },
};
