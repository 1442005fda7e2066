/**
 * `<ref>` tags and footnote templates → `Article.references` plus the citations pointing at them,
 * numbered the way the Cite extension numbers them: one key per new reference across all groups
 * (`cite_note-<name>-<key>` for a named reference, `cite_note-<key>` otherwise) and one display
 * number per group (`[n]`, `[group n]`). A named reference cited again is the same Reference with
 * one more citation; its text may come from any `<ref name>` with content in the page, including
 * list-defined references in `<references>` or `{{reflist|refs=…}}`.
 *
 * A pass after the walk: the walk only records where footnotes are used (./found.ts
 * `FootnoteUse`, each with a blank citation already in its part); `resolve` then reads the page's
 * definitions, builds the references in the order of use and fills in the citations, so that the
 * numbering is MediaWiki's whatever order the walk renders things in.
 */
import type { Citation, Link, Reference } from '../../schema/article.js';
import type { AstNodes, ExtToken, Token, TranscludeToken } from '../wikitext/syntax/types.js';
import { canonicalParameter, citationMetadata } from '../citation-metadata.js';
import { canonicalOf, citationText } from '../wikitext/citation-text.js';
import { citationType, normalizeTemplateName } from '../grammar.js';
import { ANCHOR_PARAMS, FOOTNOTE, NOTE_ID_PREFIX, TAGS, isAnchorId, isAnchorLink, templateDisplayName, templateKind } from '../wikitext/grammar.js';
import type { FootnoteUse } from '../wikitext/found.js';
import { render, templateParams } from '../wikitext/render.js';
import type { Scope } from '../wikitext/scope.js';

interface Entry {
  identifier: string;
  text: string;
  reference: Reference;
}

export class ReferenceBook {
  readonly references: Reference[] = [];
  /** Blank citations of uses that name no reference (`<ref name="x"/>` never defined): dropped from the output. */
  readonly unresolved = new Set<Citation>();
  private readonly named = new Map<string, Entry>();
  private readonly definitions = new Map<string, Token>();
  /** By name only: a definition inside `<references group=…>` or `{{notelist|refs=…}}` carries no group attribute. */
  private readonly definitionsByName = new Map<string, Token>();
  /** Full citations by the anchor CS1 gives them (`CITEREF` + authors + year), for short footnotes' `source`. */
  private anchors: Map<string, TranscludeToken> | undefined;
  /**
   * The page's templates in document order; which are citations, and their anchors, is read at the
   * first short footnote (anchorIndex).
   */
  private readonly templates: TranscludeToken[] = [];
  private nextKey = 1;
  /** Whether collectDefinitions ran (collected). */
  private collectedAll = false;
  private readonly groupCounts = new Map<string, number>();
  /** The wiki's language, since templates are per wiki (frwiki's {{Citation}} is a quotation, not a citation). */
  private readonly language: string | undefined;

  constructor(
    private readonly root: Token | undefined,
    private readonly scope: Scope,
  ) {
    this.language = scope.language;
  }

  /**
   * The pass: resolves the uses in the order the walk met them, reading the content of the
   * page's named `<ref>`s, wherever they are, when a use names one without content
   * (collected). The references, in the order of first use.
   */
  resolve(uses: readonly FootnoteUse[]): Reference[] {
    for (const use of uses) this.resolveUse(use);
    return this.references;
  }

  /**
   * The page's definitions and templates, read at the first need: a page whose named references
   * are all written with their content at first use, and that has no short footnote, never
   * walks its whole tree again (the walk was about a tenth of the time after the parse).
   */
  private collected(): void {
    if (this.collectedAll) return;
    this.collectedAll = true;
    if (this.root === undefined) return;
    try {
      this.collectDefinitions(this.root);
    } catch {
      // Definitions are an aid: without them, named references are read where they are cited.
    }
  }

  private resolveUse(use: FootnoteUse): void {
    const entry = this.entryOf(use);
    if (entry === undefined) this.unresolved.add(use.citation);
    else {
      use.citation.identifier = entry.identifier;
      use.citation.text = entry.text;
    }
  }

  /** The reference a use cites, by the kind of use. */
  private entryOf(use: FootnoteUse): Entry | undefined {
    switch (use.kind) {
      case 'ref':
        return this.cite(use.token);
      case 'by-name':
        return this.citeByName(use.name, use.group, undefined);
      case 'short':
        return this.citeShort(use.token);
      case 'note':
        return this.citeNote(use.token, use.group, use.bodyKey);
    }
  }

  private collectDefinitions(root: Token): void {
    const stack: AstNodes[] = [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      const type = n.type;
      if (type === 'template') this.templates.push(n as TranscludeToken);
      else if (type === 'ext' && TAGS.ref.has((n as ExtToken).name.toLowerCase())) {
        const ext = n as ExtToken;
        const name = attr(ext, 'name');
        if (name !== undefined && hasContent(ext)) {
          const key = keyOf(attr(ext, 'group') ?? '', name);
          if (!this.definitions.has(key)) this.definitions.set(key, ext.lastChild);
          if (!this.definitionsByName.has(name)) this.definitionsByName.set(name, ext.lastChild);
        }
      }
      const children = n.childNodes;
      // Nodes without children (text, and no template or tag, which always have some) hold
      // nothing looked for: never stacked. Asked of the child list, a plain field, rather than
      // of `type`, a getter of each node class: this walk visits every node of the page.
      for (let i = children.length - 1; i >= 0; i--) if (children[i]!.childNodes.length > 0) stack.push(children[i]!);
    }
  }

  private cite(t: ExtToken): Entry | undefined {
    const name = attr(t, 'name');
    const group = attr(t, 'group') ?? '';
    const content = hasContent(t) ? t.lastChild : undefined;
    if (name !== undefined) return this.citeByName(name, group, content);
    if (content === undefined) return undefined;
    return this.add(undefined, group, content.childNodes);
  }

  /** A named reference: the one already cited, else its content here or its definition anywhere in the page. */
  private citeByName(name: string, group: string, content: Token | undefined): Entry | undefined {
    const key = keyOf(group, name);
    const known = this.named.get(key);
    if (known !== undefined) return known;
    if (content === undefined) this.collected();
    const body = content ?? this.definitions.get(key) ?? this.definitionsByName.get(name);
    if (body === undefined) return undefined;
    const entry = this.add(name, group, body.childNodes);
    this.named.set(key, entry);
    return entry;
  }

  /** {{sfn|Smith|2001|p=5}}: a named reference "Smith 2001, p. 5." reused by identical calls. */
  private citeShort(t: TranscludeToken): Entry | undefined {
    const anon = anonValues(t);
    if (anon.length === 0) return undefined;
    const name = `${FOOTNOTE.idPrefix}${anon.join('')}${firstValue(t, FOOTNOTE.page) ?? ''}${firstValue(t, FOOTNOTE.pages) ?? ''}${firstValue(t, FOOTNOTE.location) ?? ''}`;
    const key = keyOf('', name);
    const known = this.named.get(key);
    if (known !== undefined) return known;
    // The id is Module:Footnotes' (the parameters as written); the text is what the page shows.
    const loc = this.shownValue(t, FOOTNOTE.page);
    const pages = this.shownValue(t, FOOTNOTE.pages);
    const where = this.shownValue(t, FOOTNOTE.location);
    // Module:Footnotes: authors "A", "A & B", "A, B & C"; the year last, in parentheses for {{sfnp}}.
    const year = anon.length > 1 ? anon[anon.length - 1]! : undefined;
    const authors = year === undefined ? anon : anon.slice(0, -1);
    const names = authors.length <= 1 ? authors.join('') : `${authors.slice(0, -1).join(', ')} & ${authors[authors.length - 1]}`;
    const parenthesized = FOOTNOTE.parenthesized.has(normalizeTemplateName(t.name));
    let text = year === undefined ? names : parenthesized ? `${names} (${year})` : `${names} ${year}`;
    if (loc !== undefined && loc.length > 0) text += `, p. ${loc}`;
    else if (pages !== undefined && pages.length > 0) text += `, pp. ${pages}`;
    if (where !== undefined && where.length > 0) text += `, ${where}`;
    const params = templateParams(this.scope, t);
    const template = { name: templateDisplayName(t.name), parameters: { ...params } };
    const type = citationType(t.name, this.language) ?? 'short';
    const entry = this.push(name, '', { value: `${text}.`, links: [] }, type, citationMetadata(t.name, params, type), template);
    this.addSource(entry.reference, t, anon);
    this.named.set(key, entry);
    return entry;
  }

  /**
   * The first of these parameters the call writes, as the page shows it: markup rendered
   * (`pp=[{{GBurl|id=…|p=59}} 59–61]` → "59–61", `p={{page needed}}` → nothing).
   */
  private shownValue(t: TranscludeToken, keys: readonly string[]): string | undefined {
    for (const key of keys) {
      const arg = t.getArg(key);
      if (arg === undefined) continue;
      const shown = render(this.scope, arg.lastChild.childNodes, { textOnly: true, inReference: true }).value;
      // `[{{GBurl|…}} 59–61]`: a link whose address a template writes, which the parser cannot
      // see as a link; the page shows its label.
      return LINK_WITH_TEMPLATE_URL.exec(shown)?.[1] ?? shown;
    }
    return undefined;
  }

  /** {{efn|…}}, {{refn|group=…|…}}, {{#tag:ref|…}}: a footnote whose text is a parameter. */
  private citeNote(t: TranscludeToken, defaultGroup: string, bodyKey: string): Entry | undefined {
    const group = t.getValue('group')?.trim() || defaultGroup;
    const name = t.getValue('name')?.trim() || undefined;
    const key = name === undefined ? undefined : keyOf(group, name);
    if (key !== undefined) {
      const known = this.named.get(key);
      if (known !== undefined) return known;
    }
    const body = t.getArg(bodyKey);
    if (body === undefined || body.getValue().trim().length === 0) return undefined;
    const entry = this.add(name, group, body.lastChild.childNodes);
    if (key !== undefined) this.named.set(key, entry);
    // A note may cite references of its own (unlike a <ref>); they join the list after it, and
    // the first one is the note's parent_reference (as on the HTML front door). Only its
    // footnotes count: an infobox or a description in a note is not the article's.
    const own = render(this.scope, body.lastChild.childNodes);
    for (const f of own.found) if (f.kind !== 'infobox' && f.kind !== 'description') this.resolveUse(f);
    const parent = own.citations.find((c) => !this.unresolved.has(c) && c.identifier !== entry.identifier);
    if (parent !== undefined) entry.reference.parent_reference = parent.identifier;
    return entry;
  }

  private add(name: string | undefined, group: string, body: readonly AstNodes[]): Entry {
    const scope = this.scope;
    const text = render(scope, body, { inReference: true });
    const { cite, short } = referenceTemplates(body, this.language);
    let entry: Entry;
    if (cite === undefined) entry = this.push(name, group, text, 'text', {});
    else {
      const params = templateParams(scope, cite.template);
      const template = { name: templateDisplayName(cite.template.name), parameters: { ...params } };
      const metadata = citationMetadata(cite.template.name, params, cite.type, canonicalOf(params, cite.template.name));
      entry = this.push(name, group, text, cite.type, metadata, template);
    }
    if (short !== undefined) this.addSource(entry.reference, short);
    return entry;
  }

  /** Pages without short footnotes never pay for typing every template or reading every citation's anchor. */
  private anchorIndex(): Map<string, TranscludeToken> {
    if (this.anchors !== undefined) return this.anchors;
    this.collected();
    this.anchors = new Map();
    for (const t of this.templates) {
      if (citationType(t.name, this.language) === undefined) continue;
      const anchor = anchorOf(t);
      if (anchor !== undefined && !this.anchors.has(anchor)) this.anchors.set(anchor, t);
    }
    return this.anchors;
  }

  /**
   * A short footnote names its full citation by authors and year; the citation with that CS1
   * anchor, when the page has one, is the reference's `source` (as the HTML door reads the
   * `#CITEREF…` link).
   */
  private addSource(reference: Reference, short: TranscludeToken, anon = anonValues(short)): void {
    if (anon.length < 2) return;
    const target = this.anchorIndex().get(anchorKey(anon.slice(0, -1), anon[anon.length - 1]!));
    if (target === undefined) return;
    const value = citationText(templateParams(this.scope, target), target.name);
    if (value.length > 0) reference.source = { value };
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
    const identifier = name === undefined ? `${NOTE_ID_PREFIX}${key}` : `${NOTE_ID_PREFIX}${name.replace(/\s+/g, '_')}-${key}`;
    const reference: Reference = { identifier, group: group.length > 0 ? group : null, type, metadata, text: { value: text.value } };
    if (template !== undefined) reference.template = template;
    if (text.links.length > 0) reference.text.links = text.links;
    this.references.push(reference);
    return { identifier, text: group.length > 0 ? `[${group} ${n}]` : `[${n}]`, reference };
  }
}

/** A template's positional values, trimmed, the empty ones left out (a short footnote's authors and year). */
function anonValues(t: TranscludeToken): string[] {
  return t.getAnonArgs().map((a) => a.getValue().trim()).filter((v) => v.length > 0);
}

/** A short footnote's page parameter left as `[ label]` once its link's templated address showed nothing. */
const LINK_WITH_TEMPLATE_URL = /^\[\s*([^[\]]+?)\s*\]$/;

/** CS1's anchor of a citation: up to four author surnames and the year, spaces ignored. */
function anchorKey(names: readonly string[], year: string): string {
  return (names.slice(0, 4).join('') + year).replace(/[\s_]+/g, '');
}

/** The CITEREF anchor of a citation template, from its parameters as written (any language). */
function anchorOf(t: TranscludeToken): string | undefined {
  const args = t.getAllArgs();
  // Each name resolved once for both loops (a citation has a dozen parameters, every citation
  // of a page with short footnotes is asked).
  const keys = args.map((arg) => canonicalParameter(arg.name.trim()));
  // `ref={{harvid|Stachel et al.|2008}}` names the anchor outright.
  for (let i = 0; i < args.length; i++) {
    if (keys[i] !== 'ref') continue;
    const arg = args[i]!;
    const id = arg.lastChild.childNodes.find((n) => n.type === 'template' && isAnchorId((n as TranscludeToken).name)) as TranscludeToken | undefined;
    const parts = id?.getAnonArgs().map((a) => a.getValue().trim()).filter((v) => v.length > 0) ?? [];
    if (parts.length >= 2) return anchorKey(parts.slice(0, -1), parts[parts.length - 1]!);
  }
  const m: Record<string, string> = Object.create(null);
  for (let i = 0; i < args.length; i++) {
    const name = keys[i];
    // Only the names read below: the value of every other parameter is never written out.
    if (name === undefined || !ANCHOR_KEYS.has(name) || m[name] !== undefined) continue;
    const value = args[i]!.getValue().trim();
    if (value.length > 0 && !value.includes('{{')) m[name] = value;
  }
  const names: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const v = firstOf(m, ANCHOR_PARAMS.authors, i === 1 ? '' : String(i));
    if (v === undefined) break;
    names.push(v);
  }
  if (names.length === 0) {
    const editor = firstOf(m, ANCHOR_PARAMS.editors, '');
    if (editor !== undefined) names.push(editor);
  }
  const year = m.year ?? /\b\d{4}[a-z]?\b/.exec(m.date ?? '')?.[0];
  if (names.length === 0 || year === undefined) return undefined;
  return anchorKey(names, year);
}

/** The parameters anchorOf reads: four authors, the first editor, the year or date. */
const ANCHOR_KEYS: ReadonlySet<string> = new Set([
  ...['', '2', '3', '4'].flatMap((suffix) => ANCHOR_PARAMS.authors.map((k) => k + suffix)),
  ...ANCHOR_PARAMS.editors,
  'year',
  'date',
]);

/** The value of the first of `keys` (each followed by `suffix`, a number or '') in `m`. */
function firstOf(m: Record<string, string>, keys: readonly string[], suffix: string): string | undefined {
  for (const k of keys) {
    const v = m[k + suffix];
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The first of these parameters that the call writes (trimmed), as Module:Footnotes reads aliases. */
function firstValue(t: TranscludeToken, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const v = t.getValue(key);
    if (v !== undefined) return v.trim();
  }
  return undefined;
}

/**
 * Removes the blank citations of unresolved uses from every `citations` array of the output
 * (a part's, a field's, a table cell's; an array may be shared), and the arrays left empty. Only
 * called when a use went unresolved, which real pages seldom have.
 */
export function dropUnresolved(value: unknown, unresolved: ReadonlySet<Citation>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) stack.push(x);
      continue;
    }
    const o = v as Record<string, unknown>;
    const citations = o.citations;
    if (Array.isArray(citations)) {
      let n = 0;
      for (const c of citations as Citation[]) if (!unresolved.has(c)) citations[n++] = c;
      citations.length = n;
      if (n === 0) delete o.citations;
    }
    // Strings and numbers, most of the values, are never stacked; nor what holds no citation.
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null && !HOLDS_NO_CITATION.has(k)) stack.push(x);
    }
  }
}

/**
 * Keys whose values hold no `citations` array, by the output's schema (../../schema/article.ts):
 * links and images, the references (with their metadata and template parameters, most of the
 * output of a cited page), and `citations` itself, done above.
 */
const HOLDS_NO_CITATION: ReadonlySet<string> = new Set(['citations', 'links', 'images', 'references', 'metadata', 'template']);

function keyOf(group: string, name: string): string {
  return `${group}\u0000${name}`;
}

function attr(t: ExtToken, key: string): string | undefined {
  const v = t.getAttr(key);
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s.length > 0 ? s : undefined;
}

/**
 * Whether the tag has content other than whitespace: `String(inner).trim()` without writing out
 * the content (a citation template's whole source, on every reference of the page). A token of
 * these types writes its own markup, so it is content whatever its children hold.
 */
function hasContent(t: ExtToken): boolean {
  const inner = t.lastChild as AstNodes | undefined;
  if (inner === undefined || inner.type === 'ext-attrs') return false;
  for (const n of inner.childNodes) {
    if (n.type === 'text' ? NOT_BLANK.test(n.data) : MARKUP_TOKENS.has(n.type) || String(n).trim().length > 0) return true;
  }
  return false;
}
const NOT_BLANK = /\S/;
const MARKUP_TOKENS: ReadonlySet<string> = new Set(['template', 'magic-word', 'ext', 'comment', 'link', 'category', 'file', 'html', 'ext-link', 'free-ext-link', 'magic-link', 'quote', 'list', 'dd', 'heading', 'table', 'arg', 'converter', 'hr', 'double-underscore']);

interface ReferenceTemplates {
  /** The first citation template of this wiki, with its type. */
  cite?: { template: TranscludeToken; type: string };
  /** The first short footnote or anchor link ({{sfn}}, {{harvnb}}), naming the reference's source. */
  short?: TranscludeToken;
}

/**
 * The templates a reference's content is read by (templates nested in others included), in one
 * walk. Each is the first of its kind within the first 5000 nodes: the budget counts nodes
 * visited in document order, so looking for both at once finds what two walks would.
 */
function referenceTemplates(nodes: readonly AstNodes[], language: string | undefined): ReferenceTemplates {
  const found: ReferenceTemplates = {};
  const stack: AstNodes[] = [...nodes].reverse();
  let budget = 5000;
  while (stack.length > 0 && budget-- > 0) {
    const n = stack.pop()!;
    const type = n.type;
    if (type === 'text') continue;
    if (type === 'template') {
      const t = n as TranscludeToken;
      if (found.cite === undefined) {
        const type = citationType(t.name, language);
        if (type !== undefined) found.cite = { template: t, type };
      }
      if (found.short === undefined && (templateKind(t.name).kind === 'short-footnote' || isAnchorLink(t.name))) found.short = t;
      if (found.cite !== undefined && found.short !== undefined) break;
    }
    for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return found;
}
