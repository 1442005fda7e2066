/**
 * What was pasted or dropped: HTML (a page, Parsoid output, or an Enterprise envelope as JSON
 * text, which the engine reads as it is) or wikitext, told apart by the file name when there is
 * one, else by how the text starts. The person can always override the guess.
 */
export type InputKind = 'html' | 'wikitext';

const WIKITEXT_FILES = /\.(wiki|wikitext|mediawiki|txt)$/i;
const HTML_FILES = /\.(html?|xhtml|json)$/i;

export function detectKind(text: string, fileName?: string): InputKind {
  if (fileName !== undefined) {
    if (WIKITEXT_FILES.test(fileName)) return 'wikitext';
    if (HTML_FILES.test(fileName)) return 'html';
  }
  const head = text.trimStart();
  if (head.startsWith('{')) return envelopeHtml(text) === undefined ? 'wikitext' : 'html';
  // Wikitext may hold tags (<ref>, <br>), but a page of HTML starts with one (after any comments).
  return head.replace(/^(?:<!--[\s\S]*?-->\s*)+/, '').startsWith('<') ? 'html' : 'wikitext';
}

/** The HTML a text holds: `article_body.html` of an envelope, else the text itself. */
export function htmlOf(text: string): string {
  return envelopeHtml(text) ?? text;
}

function envelopeHtml(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as { article_body?: { html?: unknown } };
    return typeof value?.article_body?.html === 'string' ? value.article_body.html : undefined;
  } catch {
    return undefined;
  }
}
