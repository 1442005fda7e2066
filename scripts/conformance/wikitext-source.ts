/**
 * What the wikitext source of a corpus article holds, read without the engine (so that a measure
 * never grades the engine by its own knowledge): its section headings and how much prose each
 * section has, the templates and tables at its head, and its `<ref>`s with blank bodies. Plain
 * string scanning: enough for the corpus measures, not a wikitext parser.
 */
import { decodeHTMLStrict } from 'entities';

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** `<ref …>…</ref>` (the body in group 1) and `<ref … />`. */
const REF_PAIR = /<ref(?:\s[^>]*?)?(?<!\/)>([\s\S]*?)<\/ref\s*>/gi;
const REF_EMPTY = /<ref(?:\s[^>]*?)?\/>/gi;

export function withoutComments(text: string): string {
  return text.replace(COMMENT, '');
}

/** `text` with every `{{…}}` removed, innermost first (nested templates, parser functions, parameters). */
export function withoutTemplates(text: string): string {
  let out = text;
  for (let i = 0; i < 50; i++) {
    const next = out.replace(/\{\{(?:(?!\{\{|\}\})[\s\S])*\}\}/g, '');
    if (next === out) break;
    out = next;
  }
  return out;
}

/** A heading's text as a reader sees it: links as their label, templates, tags, formatting and entities gone. */
export function plainHeading(raw: string): string {
  let s = withoutTemplates(raw.replace(REF_PAIR, '').replace(REF_EMPTY, ''));
  // A file (an icon in a heading) shows no text; a link shows its label, else its target.
  s = s.replace(/\[\[([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_, target: string, label: string | undefined) =>
    /\.(svg|png|jpe?g|gif|tiff?|webp)\s*$/i.test(target) ? '' : (label ?? target));
  s = s.replace(/<[^>]*>/g, '').replace(/'{2,}/g, '');
  s = decodeHTMLStrict(s);
  return s.replace(/\s+/g, ' ').trim();
}

export interface SourceSection {
  level: number;
  /** As a reader sees it (plainHeading). */
  title: string;
  /** Letters (\p{L}) of the section's own text up to the next heading, see `proseLetters`. */
  prose: number;
}

const HEADING = /^(={1,6})(.+?)\1[ \t]*$/gm;

/**
 * Letters of running text: after removing comments, `<ref>`s, templates, tags, wiki links and
 * external links whole (link lists and reference lists have none left), the letters that remain.
 */
export function proseLetters(body: string): number {
  let s = withoutTemplates(body.replace(REF_PAIR, '').replace(REF_EMPTY, ''));
  s = s.replace(/\[\[[^\]]*\]\]/g, '').replace(/\[(?:https?:)?\/\/[^\]]*\]/g, '').replace(/<[^>]*>/g, '');
  return (s.match(/\p{L}/gu) ?? []).length;
}

/** The headings of the source (comments removed) with the prose of each section's own text. */
export function sourceSections(text: string): SourceSection[] {
  const clean = withoutComments(text);
  const found = [...clean.matchAll(HEADING)];
  return found.map((m, i) => {
    const end = i + 1 < found.length ? found[i + 1]!.index : clean.length;
    return { level: m[1]!.length, title: plainHeading(m[2]!), prose: proseLetters(clean.slice(m.index + m[0].length, end)) };
  });
}

export interface HeadTemplate {
  name: string;
  /** Named parameters with a non-blank value. */
  named: number;
}

/** Splits a template body at the `|` that are not inside nested `{{ }}`, `[[ ]]` or `{| |}`. */
function splitParams(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const two = body.slice(i, i + 2);
    if (two === '{{' || two === '[[') {
      depth++;
      i++;
    } else if ((two === '}}' || two === ']]') && depth > 0) {
      depth--;
      i++;
    } else if (body[i] === '|' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** The part of the source before its first heading, without comments and `<ref>`s. */
function head(text: string): string {
  const clean = withoutComments(text).replace(REF_PAIR, '').replace(REF_EMPTY, '');
  HEADING.lastIndex = 0;
  const first = HEADING.exec(clean);
  HEADING.lastIndex = 0;
  return first === null ? clean : clean.slice(0, first.index);
}

/** Top-level template calls before the first heading (outside comments and `<ref>`s). */
export function headTemplates(text: string): HeadTemplate[] {
  const s = head(text);
  const out: HeadTemplate[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const two = s.slice(i, i + 2);
    if (two === '{{') {
      if (depth === 0) start = i;
      depth++;
      i++;
    } else if (two === '}}' && depth > 0) {
      depth--;
      i++;
      if (depth === 0) {
        const [name = '', ...params] = splitParams(s.slice(start + 2, i - 1));
        const named = params.filter((p) => {
          const eq = p.indexOf('=');
          return eq > 0 && p.slice(eq + 1).trim().length > 0;
        }).length;
        out.push({ name: name.trim(), named });
      }
    }
  }
  return out;
}

/** Whether a wiki table whose class names an infobox (`{| class="… infobox …"`) stands before the first heading. */
export function headInfoboxTable(text: string): boolean {
  return /^\{\|[^\n]*class\s*=\s*["']?[^"'\n]*\binfobox\b/im.test(head(text));
}

/** `<ref>…</ref>` pairs whose body is blank once comments are removed. */
export function blankRefs(text: string): number {
  let n = 0;
  for (const m of withoutComments(text).matchAll(REF_PAIR)) if (m[1]!.trim().length === 0) n++;
  return n;
}
