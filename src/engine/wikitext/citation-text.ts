/**
 * The readable text of a citation template, from its parameters alone. Its own module: the
 * renderer writes a citation inline with it and the reference book writes a reference's text with
 * it, and neither may import the other both ways (test/batch/layers.test.ts, no import cycle).
 */
import { canonicalMetadata, citationAliases } from '../citation-metadata.js';
import { CITATION_TEXT } from './grammar.js';

/**
 * Metadata keys read, in order, to write a citation template's text (grammar/wikitext.json
 * `citationText`): CS1 names only, because the parameters are first mapped to them
 * (citation-metadata.ts), whatever the template's language.
 */
const { author: AUTHOR_KEYS, first: FIRST_KEYS, editor: EDITOR_KEYS, editorFirst: EDITOR_FIRST_KEYS, date: DATE_KEYS, title: TITLE_KEYS, work: WORK_KEYS, publisher: PUBLISHER_KEYS } = CITATION_TEXT;

const first = (m: Readonly<Record<string, string>>, keys: readonly string[]): string | undefined => {
  for (const k of keys) if (m[k] !== undefined) return m[k];
  return undefined;
};

/**
 * Readable text of a citation template from its parameters (as written, any language):
 * "Last, First (2001). Title. Work. Publisher."
 */
export function citationText(params: Readonly<Record<string, string>>, templateName: string): string {
  const known = texts.get(params);
  if (known !== undefined && known.name === templateName) return known.text;
  const text = writeText(params, templateName);
  texts.set(params, { name: templateName, text });
  return text;
}

/**
 * Per parameters object (render.ts templateParams gives one per template, never changed): a
 * citation's text is asked again for every short footnote naming it ({{sfn|Smith|2001|p=…}},
 * ReferenceBook.addSource), dozens of times on a page citing one book by its pages.
 */
const texts = new WeakMap<Readonly<Record<string, string>>, { name: string; text: string }>();

/**
 * canonicalMetadata of a template's parameters with its own aliases, read once per parameters
 * object (render.ts templateParams, never changed): the citation's text and the reference's
 * metadata (citationMetadata) both read it. Shared: callers copy it before changing anything.
 */
export function canonicalOf(params: Readonly<Record<string, string>>, templateName: string): Readonly<Record<string, string>> {
  // The template's own names count: dewiki {{Webarchiv|text=…}} is its title.
  const aliases = citationAliases(templateName);
  const known = canonicals.get(params);
  if (known !== undefined && known.aliases === aliases) return known.metadata;
  const metadata = canonicalMetadata(params, aliases);
  canonicals.set(params, { aliases, metadata });
  return metadata;
}
const canonicals = new WeakMap<Readonly<Record<string, string>>, { aliases: ReturnType<typeof citationAliases>; metadata: Record<string, string> }>();

function writeText(params: Readonly<Record<string, string>>, templateName: string): string {
  const m = canonicalOf(params, templateName);
  const parts: string[] = [];
  let author = first(m, AUTHOR_KEYS);
  let given = first(m, FIRST_KEYS);
  if (author === undefined) {
    const editor = first(m, EDITOR_KEYS);
    const editorGiven = first(m, EDITOR_FIRST_KEYS);
    if (editor !== undefined) {
      author = editorGiven === undefined ? `${editor}, ed.` : editor;
      given = editorGiven === undefined ? undefined : `${editorGiven}, ed.`;
    }
  }
  const date = first(m, DATE_KEYS);
  let head = author === undefined ? '' : given === undefined ? author : `${author}, ${given}`;
  if (date !== undefined) head = head.length > 0 ? `${head} (${date})` : date;
  if (head.length > 0) parts.push(head);
  for (const v of [first(m, TITLE_KEYS), first(m, WORK_KEYS), first(m, PUBLISHER_KEYS)]) if (v !== undefined) parts.push(v);
  if (parts.length === 0 && params['1'] !== undefined) parts.push(params['1']);
  return parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(' ');
}
