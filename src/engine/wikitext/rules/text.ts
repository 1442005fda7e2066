/** Text: cut at line breaks, each slice a piece of its line (a line break ends the line). */
import type { AstText } from '../syntax/types.js';
import type { WikitextRule, WikitextWalk } from '../types.js';

export const text: WikitextRule = {
  name: 'text',
  breaks: false,
  test: (n) => n.type === 'text',
  run(n, walk) {
    textLines((n as AstText).data, walk);
  },
};

/** Adds text to the walk's lines: each line break ends a line. */
export function textLines(data: string, walk: WikitextWalk): void {
  // Most text between two tokens of a line holds no line break: one piece, no array built.
  if (!data.includes('\n')) {
    if (data.length > 0) walk.piece(data);
    return;
  }
  const parts = data.split('\n');
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) walk.endLine();
    if (parts[i]!.length > 0) walk.piece(parts[i]!);
  }
}
