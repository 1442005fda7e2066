/**
 * `<ref>` tags and footnote templates → `Article.references` plus the citations pointing at them,
 * numbered the way the Cite extension numbers them: one key per new reference across all groups
 * (`cite_note-<name>-<key>` for a named reference, `cite_note-<key>` otherwise) and one display
 * number per group (`[n]`, `[group n]`). A named reference cited again is the same Reference with
 * one more citation; its text may come from any `<ref name>` with content in the page, including
 * list-defined references in `<references>` or `{{reflist|refs=…}}`.
 */
import type { Citation, Link, Reference } from '../../schema/article.js';
import type { AstNodes, ExtToken, Token, TranscludeToken } from 'wikiparser-node/dist/internal.js';
import { canonicalParameter, citationMetadata } from '../citation-metadata.js';
import { citationType, normalizeTemplateName } from '../grammar.js';
import { render, templateParams } from './render.js';
import type { Scope } from './scope.js';

interface Entry {
  identifier: string;
  text: string;
  reference: Reference;
}

/**
 * Metadata keys read, in order, to write a citation template's text: CS1 names only, because the
 * parameters are first mapped to them (citation-metadata.ts), whatever the template's language.
 */
const AUTHOR_KEYS = ['author', 'last', 'authors'];
const FIRST_KEYS = ['first'];
const EDITOR_KEYS = ['editor', 'editor-last'];
const EDITOR_FIRST_KEYS = ['editor-first'];
const DATE_KEYS = ['date', 'year'];
const TITLE_KEYS = ['title', 'chapter'];
const WORK_KEYS = ['work', 'journal', 'newspaper', 'magazine', 'website', 'periodical', 'encyclopedia'];
const PUBLISHER_KEYS = ['publisher'];

const first = (m: Record<string, string>, keys: readonly string[]): string | undefined => {
  for (const k of keys) if (m[k] !== undefined) return m[k];
  return undefined;
};

/**
 * Readable text of a citation template from its parameters (as written, any language):
 * "Last, First (2001). Title. Work. Publisher."
 */
export function citationText(params: Record<string, string>): string {
  const m: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const name = canonicalParameter(key);
    if (name !== undefined) m[name] ??= value;
  }
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

export class ReferenceBook {
  readonly references: Reference[] = [];
  private readonly named = new Map<string, Entry>();
  private readonly definitions = new Map<string, Token>();
  /** By name only: a definition inside `<references group=…>` or `{{notelist|refs=…}}` carries no group attribute. */
  private readonly definitionsByName = new Map<string, Token>();
  private nextKey = 1;
  private readonly groupCounts = new Map<string, number>();
  private scope: Scope | undefined;

  /** Collects the content of every named `<ref>` in the page, wherever it is. */
  constructor(root: Token | undefined) {
    if (root === undefined) return;
    try {
      this.collectDefinitions(root);
    } catch {
      // Definitions are an aid: without them, named references are read where they are cited.
    }
  }

  private collectDefinitions(root: Token): void {
    const stack: AstNodes[] = [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.type === 'text') continue;
      if (n.type === 'ext' && (n as ExtToken).name.toLowerCase() === 'ref') {
        const ext = n as ExtToken;
        const name = attr(ext, 'name');
        if (name !== undefined && hasContent(ext)) {
          const key = keyOf(attr(ext, 'group') ?? '', name);
          if (!this.definitions.has(key)) this.definitions.set(key, ext.lastChild);
          if (!this.definitionsByName.has(name)) this.definitionsByName.set(name, ext.lastChild);
        }
      }
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
    }
  }

  attach(scope: Scope): void {
    this.scope = scope;
  }

  cite(t: ExtToken): Citation | undefined {
    const name = attr(t, 'name');
    const group = attr(t, 'group') ?? '';
    const content = hasContent(t) ? t.lastChild : undefined;
    if (name !== undefined) {
      const key = keyOf(group, name);
      const known = this.named.get(key);
      if (known !== undefined) return citation(known);
      const body = content ?? this.definitions.get(key) ?? this.definitionsByName.get(name);
      if (body === undefined) return undefined;
      const entry = this.add(name, group, body.childNodes);
      this.named.set(key, entry);
      return citation(entry);
    }
    if (content === undefined) return undefined;
    return citation(this.add(undefined, group, content.childNodes));
  }

  /** {{sfn|Smith|2001|p=5}}: a named reference "Smith 2001, p. 5." reused by identical calls. */
  citeShort(t: TranscludeToken): Citation | undefined {
    const anon = t.getAnonArgs().map((a) => a.getValue().trim()).filter((v) => v.length > 0);
    if (anon.length === 0) return undefined;
    const loc = t.getValue('p')?.trim() ?? t.getValue('page')?.trim();
    const pages = t.getValue('pp')?.trim() ?? t.getValue('pages')?.trim();
    const where = t.getValue('loc')?.trim();
    const name = `FOOTNOTE${anon.join('')}${loc ?? ''}${pages ?? ''}${where ?? ''}`;
    const key = keyOf('', name);
    const known = this.named.get(key);
    if (known !== undefined) return citation(known);
    // Module:Footnotes: authors "A", "A & B", "A, B & C"; the year last, in parentheses for {{sfnp}}.
    const year = anon.length > 1 ? anon[anon.length - 1]! : undefined;
    const authors = year === undefined ? anon : anon.slice(0, -1);
    const names = authors.length <= 1 ? authors.join('') : `${authors.slice(0, -1).join(', ')} & ${authors[authors.length - 1]}`;
    const parenthesized = normalizeTemplateName(t.name).endsWith('p');
    let text = year === undefined ? names : parenthesized ? `${names} (${year})` : `${names} ${year}`;
    if (loc !== undefined && loc.length > 0) text += `, p. ${loc}`;
    else if (pages !== undefined && pages.length > 0) text += `, pp. ${pages}`;
    if (where !== undefined && where.length > 0) text += `, ${where}`;
    const params = templateParams(this.scope!, t);
    const template = { name: templateNameOf(t), parameters: { ...params } };
    const type = citationType(t.name) ?? 'short';
    const entry = this.push(name, '', { value: `${text}.`, links: [] }, type, citationMetadata(t.name, params, type), template);
    this.named.set(key, entry);
    return citation(entry);
  }

  /** {{efn|…}}, {{refn|group=…|…}}, {{#tag:ref|…}}: a footnote whose text is a parameter. */
  citeNote(t: TranscludeToken, defaultGroup: string, bodyKey = '1'): Citation | undefined {
    const group = t.getValue('group')?.trim() || defaultGroup;
    const name = t.getValue('name')?.trim() || undefined;
    const key = name === undefined ? undefined : keyOf(group, name);
    if (key !== undefined) {
      const known = this.named.get(key);
      if (known !== undefined) return citation(known);
    }
    const body = t.getArg(bodyKey);
    if (body === undefined || body.getValue().trim().length === 0) return undefined;
    const entry = this.add(name, group, body.lastChild.childNodes);
    if (key !== undefined) this.named.set(key, entry);
    // A note may cite references of its own (unlike a <ref>); they join the list after it, and
    // the first one is the note's parent_reference (as on the HTML front door).
    const own = render(this.scope!, body.lastChild.childNodes, { collectReferencesOnly: true });
    const parent = own.citations.find((c) => c.identifier !== entry.identifier);
    if (parent !== undefined) entry.reference.parent_reference = parent.identifier;
    return citation(entry);
  }

  private add(name: string | undefined, group: string, body: readonly AstNodes[]): Entry {
    const scope = this.scope!;
    const text = render(scope, body, { inReference: true });
    const cite = findCitationTemplate(body);
    if (cite === undefined) return this.push(name, group, text, 'text', {});
    const params = templateParams(scope, cite);
    const template = { name: templateNameOf(cite), parameters: { ...params } };
    return this.push(name, group, text, citationType(cite.name) ?? 'text', citationMetadata(cite.name, params), template);
  }

  private push(
    name: string | undefined,
    group: string,
    text: { value: string; links: Link[] },
    type: string,
    metadata: Record<string, string>,
    template?: Reference['template'],
  ): Entry {
    const key = this.nextKey++;
    const n = (this.groupCounts.get(group) ?? 0) + 1;
    this.groupCounts.set(group, n);
    const identifier = name === undefined ? `cite_note-${key}` : `cite_note-${name.replace(/\s+/g, '_')}-${key}`;
    const reference: Reference = { identifier, group: group.length > 0 ? group : null, type, metadata, text: { value: text.value } };
    if (template !== undefined) reference.template = template;
    if (text.links.length > 0) reference.text.links = text.links;
    this.references.push(reference);
    return { identifier, text: group.length > 0 ? `[${group} ${n}]` : `[${n}]`, reference };
  }
}

/** The template's name as the HTML path reads it from data-mw: "Template:Cite_web" → "Cite web". */
function templateNameOf(t: TranscludeToken): string {
  return t.name.replace(/^[^:]*:/, '').replace(/_/g, ' ').trim();
}

function citation(e: Entry): Citation {
  return { identifier: e.identifier, text: e.text };
}

function keyOf(group: string, name: string): string {
  return `${group}\u0000${name}`;
}

function attr(t: ExtToken, key: string): string | undefined {
  const v = t.getAttr(key);
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s.length > 0 ? s : undefined;
}

function hasContent(t: ExtToken): boolean {
  const inner = t.lastChild as AstNodes | undefined;
  return inner !== undefined && inner.type !== 'ext-attrs' && String(inner).trim().length > 0;
}

/** The first citation template in a reference's content (templates nested in others included). */
function findCitationTemplate(nodes: readonly AstNodes[]): TranscludeToken | undefined {
  const stack: AstNodes[] = [...nodes].reverse();
  let budget = 5000;
  while (stack.length > 0 && budget-- > 0) {
    const n = stack.pop()!;
    if (n.type === 'text') continue;
    if (n.type === 'template' && citationType((n as TranscludeToken).name) !== undefined) return n as TranscludeToken;
    for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return undefined;
}
