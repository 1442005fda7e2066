/**
 * Builds the section tree from a flat stream of headings and blocks, for both front doors (HTML
 * and wikitext): a heading opens a section below the nearest open one of a lower level, so that
 * Parsoid's nested `<section>`s, the flat headings of rendered pages and `== wikitext ==` headings
 * all give the same tree. Content before the first heading is the lead, named "abstract". A
 * boilerplate heading drops its section and every subsection, up to the next heading of its level
 * or higher.
 */
import type { Part } from '../schema/article.js';

export const LEAD_NAME = 'abstract';

interface Open {
  level: number;
  part: Part;
}

export class SectionTree {
  readonly lead: Part = { name: LEAD_NAME, type: 'section' };
  readonly sections: Part[] = [this.lead];
  private readonly open: Open[] = [{ level: 0, part: this.lead }];
  /** While set, blocks belong to a boilerplate section at this level and are dropped. */
  private skipLevel = 0;

  get inLead(): boolean {
    return this.open.length === 1 && this.skipLevel === 0;
  }

  /** Names of the open sections, outermost first; the lead's name inside the lead (table identifiers). */
  get path(): string[] {
    const open = this.open.length === 1 ? this.open : this.open.slice(1);
    return open.map((o) => o.part.name ?? '');
  }

  get skipping(): boolean {
    return this.skipLevel !== 0;
  }

  /** Returns the section the heading opened; undefined when it opened none (boilerplate). */
  heading(level: number, name: string, boilerplate: boolean): Part | undefined {
    if (this.skipLevel !== 0 && level > this.skipLevel) return undefined;
    this.skipLevel = 0;
    if (boilerplate) {
      this.skipLevel = level;
      return undefined;
    }
    while (this.open.length > 1 && this.open[this.open.length - 1]!.level >= level) this.open.pop();
    const section: Part = { name, type: 'section' };
    if (this.open.length === 1) this.sections.push(section);
    else addPart(this.open[this.open.length - 1]!.part, section);
    this.open.push({ level, part: section });
    return section;
  }

  block(part: Part): void {
    if (this.skipLevel !== 0) return;
    addPart(this.open[this.open.length - 1]!.part, part);
  }
}

export function addPart(parent: Part, child: Part): void {
  if (parent.has_parts === undefined) parent.has_parts = [child];
  else parent.has_parts.push(child);
}
