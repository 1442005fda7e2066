/**
 * What a rendering finds besides its text: footnote uses, infobox templates, the short
 * description. The renderer (./render.ts) returns them in document order and records nothing;
 * the caller decides whether they count (the walk commits the finds of the renderings that place
 * content, ./walker.ts `commit`; a second reading of the same text for a heading, the abstract or
 * a probe drops them), so rendering text twice cannot collect twice.
 */
import type { Citation } from '../../schema/article.js';
import type { ExtToken, TranscludeToken } from './syntax/types.js';

/**
 * A footnote marker met in the text: a `<ref>`, a short footnote ({{sfn}}), a note template
 * ({{efn}}, {{#tag:ref}}) or a name of a template citing references by name ({{r|a|b}}: one use
 * per name, as `<ref name="a"/><ref name="b"/>`). `citation` is already in the rendering's citations, blank: the
 * reference pass after the walk (./references.ts `ReferenceBook.resolve`) numbers the uses in
 * order, fills it in, or drops it when the use names no reference.
 */
export type FootnoteUse =
  | { readonly kind: 'ref'; readonly token: ExtToken; readonly citation: Citation }
  | { readonly kind: 'short'; readonly token: TranscludeToken; readonly citation: Citation }
  | { readonly kind: 'by-name'; readonly name: string; readonly group: string; readonly citation: Citation }
  | { readonly kind: 'note'; readonly token: TranscludeToken; readonly group: string; readonly bodyKey: string; readonly citation: Citation };

export type Found =
  | FootnoteUse
  /** An infobox template (never text): the committer builds its part. */
  | { readonly kind: 'infobox'; readonly token: TranscludeToken }
  /** A short description template: the committer reads its text. */
  | { readonly kind: 'description'; readonly token: TranscludeToken };

/** A blank citation for a footnote use, filled in by the reference pass. */
export const blankCitation = (): Citation => ({ identifier: '', text: '' });

/** Appends `from` to `to` (the finds of a rendering kept by its caller). */
export function keep(to: Found[], from: readonly Found[]): void {
  for (const f of from) to.push(f);
}
