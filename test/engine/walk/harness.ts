/**
 * Runs a rule on its own: a preset of just that rule plus the fewest others the fragment needs
 * (`container` as the fallback, so that a wrapper's children are walked), over an HTML fragment.
 * Also the fragment helpers the engine's unit tests share (an element by name, an enwiki context).
 */
import type { Part } from '../../../src/schema/article.js';
import { createContext } from '../../../src/engine/context.js';
import type { Context } from '../../../src/engine/context.js';
import type { Element } from '../../../src/engine/dom.js';
import { findFirst, parseHtml, tagName } from '../../../src/engine/dom.js';
import type { Extracted } from '../../../src/engine/extracted.js';
import { extract } from '../../../src/engine/sections.js';
import { siteFromUrl } from '../../../src/engine/site.js';
import { container } from '../../../src/engine/walk/container.js';
import type { Rule } from '../../../src/engine/walk/types.js';

export const SITE = siteFromUrl('https://en.wikipedia.org/wiki/X');

/** The fragment's <body>, as the walk would get it for Parsoid HTML. */
export function body(html: string): Element {
  return findFirst(parseHtml(`<body>${html}</body>`), (e) => tagName(e) === 'body')!;
}

/** A fresh context for a page of enwiki (SITE), with the English boilerplate titles. */
export function enContext(): Context {
  return createContext(SITE, 'en');
}

/** The first element named `name` in `html`. */
export function first(html: string, name: string): Element {
  const el = findFirst(parseHtml(html), (e) => tagName(e) === name);
  if (el === undefined) throw new Error(`no <${name}> in ${html}`);
  return el;
}

/** The first element of a fragment, for `rule.test`. */
export function element(html: string): Element {
  return findFirst(parseHtml(html), () => true)!;
}

export function walk(rules: readonly Rule[], html: string, language = 'en'): Extracted {
  return extract(body(html), createContext(SITE, language), [...rules, container]);
}

/** The lead's blocks. */
export function lead(x: Extracted): Part[] {
  return x.sections[0]!.has_parts ?? [];
}

/** The type and value of each block of a section, for compact expectations. */
export function blocks(section: Part): [string, string | undefined][] {
  return (section.has_parts ?? []).map((p) => [p.type, p.value ?? p.name]);
}
