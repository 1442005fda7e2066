/**
 * Template calls recorded by Parsoid in `data-mw` on transclusions (Specs/HTML §Transclusion
 * content): `{"parts":[{"template":{"target":{"wt","href"},"params":{name:{"wt"}}}}]}`.
 * The `data-mw` sits on the first element of the transclusion's output; the other elements share
 * its `about` id.
 */
import type { Element } from './dom.js';
import { dataMwOf } from './data-mw.js';
import { attr, hasAnyToken, isElement, previousSibling } from './dom.js';
import { TRANSCLUSION_TYPEOFS } from './grammar.js';

export interface TemplateCall {
  /** Canonical name from the target's href ("Infobox person"), or its wikitext when there is none. */
  name: string;
  /** Parameters as written in wikitext, trimmed; empty ones are left out. */
  params: Record<string, string>;
}

/** The grammar's tokens, few: each is looked for in place (hasAnyToken allocates nothing). */
const TYPEOFS = [...TRANSCLUSION_TYPEOFS];

export function isTransclusion(el: Element): boolean {
  return hasAnyToken(attr(el, 'typeof'), TYPEOFS);
}

/** The template calls of a transclusion element; [] when it has no (valid) data-mw. */
export function templateCalls(el: Element): TemplateCall[] {
  const calls: TemplateCall[] = [];
  for (const template of dataMwOf(el)?.templates ?? []) {
    const name = templateName(template.target.href, template.target.wt);
    if (name === undefined) continue;
    const params: Record<string, string> = {};
    for (const [key, value] of template.params) {
      const param = key.trim();
      const wt = value.trim();
      // As a key, "__proto__" would set the object's prototype rather than hold a parameter.
      if (wt.length > 0 && param !== '__proto__') params[param] = wt;
    }
    calls.push({ name, params });
  }
  return calls;
}

function templateName(href: string | undefined, wt: string | undefined): string | undefined {
  if (href !== undefined && href.length > 0) {
    let name = href.replace(/^\.\//, '').replace(/^[^:]+:/, '');
    try {
      name = decodeURIComponent(name);
    } catch {
      // keep as written
    }
    name = name.replace(/_/g, ' ').trim();
    if (name.length > 0) return name;
  }
  if (wt !== undefined && wt.trim().length > 0) return wt.trim();
  return undefined;
}

/**
 * The element holding the data-mw for `el`'s transclusion: `el` itself, or the earlier sibling
 * with the same `about` (e.g. the TemplateStyles <style> emitted before an infobox table).
 */
export function transclusionHead(el: Element): Element | undefined {
  if (attr(el, 'data-mw') !== undefined && isTransclusion(el)) return el;
  const about = attr(el, 'about');
  if (about === undefined) return undefined;
  let head: Element | undefined;
  for (let n = previousSibling(el); n !== null; n = previousSibling(n)) {
    if (!isElement(n)) continue;
    if (attr(n, 'about') !== about) break;
    if (attr(n, 'data-mw') !== undefined) head = n;
  }
  return head;
}
