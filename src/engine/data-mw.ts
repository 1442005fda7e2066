/**
 * The one reader of Parsoid's `data-mw` attribute (Specs/HTML §Transclusion content, §Extensions):
 * a JSON object such as `{"parts":[{"template":{"target":{"wt","href"},"params":{name:{"wt"}}}}]}`
 * on a transclusion, or `{"name":"references","attrs":{"group":"note"}}` on an extension.
 *
 * The attribute is page content, so it can hold anything: invalid JSON, `null`, a number, parts
 * whose `template` is `null`. Every consumer goes through this reader, which checks each field it
 * returns and degrades field by field — a malformed field reads as absent, a malformed part is
 * skipped, the rest is kept — so no consumer touches raw JSON and none can throw on it.
 *
 * Checked by hand rather than with zod: the engine reads data-mw on every reference entry, and on
 * the corpus's 12,862 transclusions a zod schema (with `.catch` per field for best effort) took
 * about twice as long as JSON.parse itself; these checks add almost nothing to it.
 */
import type { Element } from './dom.js';
import { attr } from './dom.js';

export interface TemplateData {
  target: { wt?: string; href?: string };
  /** Parameters whose `wt` is a string, by name as written (untrimmed). A Map: names are content. */
  params: Map<string, string>;
}

export interface DataMw {
  /** Extension name, e.g. "references". */
  name?: string;
  /** Extension attributes; only those the engine reads. */
  attrs: { group?: string };
  /** The template parts of a transclusion; malformed ones are already left out. */
  templates: TemplateData[];
}

type JsonObject = Record<string, unknown>;

function object(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function string(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The data-mw of an element, as `readDataMw(attr(el, 'data-mw'))`. */
export function dataMwOf(el: Element): DataMw | undefined {
  return readDataMw(attr(el, 'data-mw'));
}

/** A data-mw attribute's value read, or undefined when absent or not a JSON object. */
export function readDataMw(raw: string | undefined): DataMw | undefined {
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const data = object(json);
  if (data === undefined) return undefined;
  const out: DataMw = { attrs: {}, templates: [] };
  const name = string(data.name);
  if (name !== undefined) out.name = name;
  const group = string(object(data.attrs)?.group);
  if (group !== undefined) out.attrs.group = group;
  // Parts are literal wikitext strings between template calls, or `{template}` objects.
  for (const part of Array.isArray(data.parts) ? (data.parts as unknown[]) : []) {
    const template = object(object(part)?.template);
    if (template !== undefined) out.templates.push(templateData(template));
  }
  return out;
}

function templateData(template: JsonObject): TemplateData {
  const target = object(template.target);
  const out: TemplateData = { target: {}, params: new Map() };
  const wt = string(target?.wt);
  const href = string(target?.href);
  if (wt !== undefined) out.target.wt = wt;
  if (href !== undefined) out.target.href = href;
  const params = object(template.params);
  // for…in visits a parsed object's own keys in Object.entries' order (a JSON object has no
  // inherited enumerable keys) without building the array of pairs.
  if (params !== undefined) {
    for (const key in params) {
      const param = string(object(params[key])?.wt);
      if (param !== undefined) out.params.set(key, param);
    }
  }
  return out;
}
