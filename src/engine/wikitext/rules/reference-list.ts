/**
 * A reference list alone on its line — `<references/>`, {{reflist}} and every wiki's own
 * ({{Przypisy}}, {{Примечания}}, {{Listaref}} …: grammar/wikitext.json `referenceLists`) — is
 * where the page prints its footnotes: no text. The references it holds (`<references><ref
 * name=…>`, `refs=`, {{Przypisy|<ref name=…>}}) are collected, in the list's order after those
 * the text cited before it, as the HTML door reads every entry of the printed list: a use of one
 * the walk cannot see (a template's own footnote) still leaves its entry in the list. A
 * definition the text did cite is the same reference (by name).
 * The definitions of a list printing a group of its own (`group=`, {{notelist}}: `grouped`) are
 * left to the uses of that group, which resolve them by name.
 */
import type { AstNodes, ExtToken, TranscludeToken } from '../syntax/types.js';
import { blankCitation } from '../found.js';
import type { FootnoteUse } from '../found.js';
import { TAGS, isGroupedReferenceList, templateKind } from '../grammar.js';
import type { WikitextRule } from '../types.js';
import { aloneOnLine } from './alone.js';

/** The Cite extension's list tag (never localized). */
const REFERENCES_TAG = 'references';

export const referenceList: WikitextRule = {
  name: 'reference-list',
  breaks: true,
  test: (n) => (isReferenceListTemplate(n) || isReferencesTag(n)) && aloneOnLine(n),
  run(n, walk) {
    if (hasGroup(n)) return;
    walk.commit(definitionsIn(n).map((token): FootnoteUse => ({ kind: 'ref', token, citation: blankCitation() })));
  },
};

const isReferenceListTemplate = (n: AstNodes): n is TranscludeToken => n.type === 'template' && templateKind((n as TranscludeToken).name).kind === 'reference-list';
const isReferencesTag = (n: AstNodes): n is ExtToken => n.type === 'ext' && (n as ExtToken).name.toLowerCase() === REFERENCES_TAG;

function hasGroup(n: AstNodes): boolean {
  if (isReferencesTag(n)) return String(n.getAttr('group') ?? '').trim().length > 0;
  const t = n as TranscludeToken;
  return isGroupedReferenceList(t.name) || (t.getValue('group')?.trim().length ?? 0) > 0;
}

/** The named `<ref>`s with content inside the list, in document order (not those nested in another). */
function definitionsIn(n: AstNodes): ExtToken[] {
  const out: ExtToken[] = [];
  const stack: AstNodes[] = [...n.childNodes].reverse();
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (c.type === 'text') continue;
    if (c.type === 'ext' && TAGS.ref.has((c as ExtToken).name.toLowerCase())) {
      const ref = c as ExtToken;
      if (String(ref.getAttr('name') ?? '').trim().length > 0 && hasContent(ref)) out.push(ref);
      continue;
    }
    for (let i = c.childNodes.length - 1; i >= 0; i--) stack.push(c.childNodes[i]!);
  }
  return out;
}

/** `<ref name="x">…</ref>`, not `<ref name="x"/>` (whose last child is its attributes). */
function hasContent(ref: ExtToken): boolean {
  const inner = ref.lastChild as AstNodes | undefined;
  return inner !== undefined && inner.type !== 'ext-attrs' && String(inner).trim().length > 0;
}
