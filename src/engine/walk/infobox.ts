/**
 * An infobox: a part in Article.infoboxes, none in the section. Recognised by Parsoid's markup
 * first — a transclusion whose data-mw names a template the grammar knows as an infobox
 * (grammar/wikitext.json `infobox`, the list the wikitext front door uses) — and by class
 * (grammar/infobox.json) where Parsoid marks nothing (rendered pages, or a box built by a
 * template the grammar does not name).
 */
import type { Part } from '../../schema/article.js';
import type { Element } from '../dom.js';
import { infoboxPart } from '../infobox/html.js';
import { isInfoboxTemplate } from '../grammar.js';
import { isInfobox } from '../rules.js';
import { isTransclusion, templateCalls } from '../transclusion.js';
import type { Rule } from './types.js';

/** The element carries a transclusion's data-mw naming an infobox template (Specs/HTML §Transclusion content). */
export function isInfoboxTransclusion(el: Element): boolean {
  return isTransclusion(el) && templateCalls(el).some((call) => isInfoboxTemplate(call.name));
}

export const infobox: Rule = {
  name: 'infobox',
  breaks: true,
  test: (el) => isInfobox(el) || isInfoboxTransclusion(el),
  run(el, walk, out, depth) {
    const byClass = isInfobox(el);
    const part = infoboxPart(el, walk.ctx, depth);
    // Named an infobox by its template but without an infobox's structure, label/value rows
    // (enwiki {{Infobox COA wide}} renders a wikitable whose labels sit in one cell's list): not
    // read as a box, so the later rules (table, container) read it. A box marked by class that
    // holds nothing is dropped.
    if (!byClass && (part === undefined || !hasLabelledField(part))) return false;
    if (part === undefined) return;
    walk.ctx.mark?.(part, el);
    out.infobox(part);
  },
};

/** Whether an infobox part has a field with a label, in a section or at its top. */
export function hasLabelledField(box: Part): boolean {
  for (const part of box.has_parts ?? []) {
    if (part.type === 'field' && part.name !== undefined) return true;
    if (part.type === 'section' && part.has_parts?.some((f) => f.type === 'field' && f.name !== undefined)) return true;
  }
  return false;
}
