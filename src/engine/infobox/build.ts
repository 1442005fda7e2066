/**
 * The sections of an infobox as both front doors build them while reading the box in order: the
 * first header is the box's title (its first section bears it), a later one opens a named section,
 * and parts go to the last section opened.
 */
import type { Part } from '../../schema/article.js';

export class InfoboxSections {
  readonly sections: Part[] = [];

  constructor(public title?: string) {}

  /** The section parts go to; the title section is opened on first use. */
  current(): Part {
    let last = this.sections[this.sections.length - 1];
    if (last === undefined) {
      last = { type: 'section' };
      if (this.title !== undefined) last.name = this.title;
      this.sections.push(last);
    }
    return last;
  }

  header(text: string): void {
    if (text.length === 0) return;
    if (this.title === undefined && this.sections.length === 0) {
      this.title = text;
      return;
    }
    // The title section exists even when no image or field precedes the first header.
    this.current();
    this.sections.push({ name: text, type: 'section' });
  }

  /** A sub-header inside a section ("Musical career") opens a named section, never the title. */
  subheader(text: string): void {
    this.current();
    this.sections.push({ name: text, type: 'section' });
  }

  add(part: Part): void {
    const section = this.current();
    (section.has_parts ??= []).push(part);
  }
}

/**
 * Whether bold text standing alone on a row names a group of fields: a bold line with figures is
 * a value standing out (frwiki's term of office "7 juin 2001 – 12 septembre 2016" under its
 * header), not the name of a group.
 */
export const isGroupName = (text: string): boolean => text.length > 0 && !/\p{N}/u.test(text);
