/**
 * Citation template parameters → Reference.metadata in one vocabulary, CS1's English parameter
 * names (Help:Citation Style 1), whichever wiki and template wrote them: frwiki's `titre` and
 * `consulté le`, eswiki's `fechaacceso`, CS1's own `author1-last` all come out as `title`,
 * `access-date`, `last`. The mapping is data (grammar/citations.json `parameters`); both front
 * doors (HTML data-mw and wikitext) call `citationMetadata`, so they agree.
 */
import { decodeHTMLStrict } from 'entities';
import { citationType, normalizeTemplateName } from './grammar.js';
import { GRAMMAR } from './grammar/load.js';
import type { TextRule } from './grammar/schemas.js';
import { textPatternRule } from './wiki/templates.js';

const { citations } = GRAMMAR;

type Aliases = ReadonlyMap<string, string>;

/** Parameter name as matched: lower case, runs of spaces and underscores as one space. */
export function normalizeParameterName(name: string): string {
  return name.toLowerCase().replace(/[\s_]+/g, ' ').trim();
}

/** The vocabulary names plus every unscoped alias; scoped aliases per template name. */
const global = new Map<string, string>();
const scoped = new Map<string, Map<string, string>>();
for (const name of citations.parameters.vocabulary) global.set(name, name);
for (const rule of citations.parameters.aliases as readonly { templates?: readonly string[]; map: Record<string, string> }[]) {
  const entries = Object.entries(rule.map).map(([alias, to]) => [normalizeParameterName(alias), to] as const);
  if (rule.templates === undefined) {
    for (const [alias, to] of entries) global.set(alias, to);
    continue;
  }
  for (const template of rule.templates) {
    const map = scoped.get(normalizeTemplateName(template)) ?? new Map<string, string>();
    for (const [alias, to] of entries) map.set(alias, to);
    scoped.set(normalizeTemplateName(template), map);
  }
}

const positional = new Map(citations.parameters.positional.map((r) => [r.match, r]));

/** `(\D*)(\d+)(\D*)`: the one run of digits in a name is a person's number ("author2-last"). */
const NUMBERED = /^(\D*?)(\d+)(\D*)$/;

function look(aliases: Aliases | undefined, key: string): string | undefined {
  return aliases?.get(key) ?? global.get(key);
}

/**
 * The vocabulary name for one parameter name, or undefined when it has none. A name is tried as
 * written, then with its number as `#` ("nom2" → "nom#" → "last#" → "last2"), then as the
 * unnumbered first person ("nom" → "nom#" → "last"). Person 1 is written without its number.
 */
function resolve(name: string, aliases: Aliases | undefined): string | undefined {
  const key = normalizeParameterName(name);
  // `#` is the grammar's placeholder; a parameter literally named "last#" is not "last".
  if (key.length === 0 || key.includes('#')) return undefined;
  const direct = look(aliases, key);
  if (direct !== undefined && !direct.includes('#')) return direct;
  const numbered = NUMBERED.exec(key);
  if (numbered !== null) {
    const [, before, n, after] = numbered as unknown as [string, string, string, string];
    const pattern = look(aliases, `${before}#${after}`);
    if (pattern === undefined || !pattern.includes('#')) return undefined;
    return pattern.replace('#', Number(n) === 1 ? '' : String(Number(n)));
  }
  return look(aliases, `${key}#`)?.replace('#', '');
}

/**
 * Resolved names, per alias scope: a corpus repeats a few hundred names (title, url, …) across
 * thousands of references. Names are page content, so each memo is emptied when it grows large.
 */
const MEMO_LIMIT = 4096;
const memos = new Map<Aliases | undefined, Map<string, string | null>>();

export function canonicalParameter(name: string, aliases: Aliases | undefined = undefined): string | undefined {
  let memo = memos.get(aliases);
  if (memo === undefined) memos.set(aliases, (memo = new Map()));
  const known = memo.get(name);
  if (known !== undefined) return known ?? undefined;
  const resolved = resolve(name, aliases);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(name, resolved ?? null);
  return resolved;
}

/**
 * Parameters (as written, in order) by their vocabulary names, the first one written winning when
 * two mean the same; names without a CS1 equivalent left out. `aliases`: the template's own
 * (scoped) aliases, when it has any.
 */
export function canonicalMetadata(params: Readonly<Record<string, string>>, aliases: Aliases | undefined = undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const param in params) {
    const key = canonicalParameter(param, aliases);
    if (key !== undefined && metadata[key] === undefined) metadata[key] = params[param]!;
  }
  return metadata;
}

/** The parameter names a template reads in its own way (grammar rules with `templates`: dewiki {{Webarchiv|text=…}} is the title), if any. */
export function citationAliases(templateName: string): Aliases | undefined {
  return scoped.size === 0 ? undefined : scoped.get(normalizeTemplateName(templateName));
}

/**
 * Reference.metadata for a citation template's parameters: canonicalMetadata with the template's
 * scoped aliases. Short-footnote templates ({{sfn}}, {{harvnb}}: `type` "short") also read their
 * positional parameters (grammar `positional`). `canonical`: that canonicalMetadata when the
 * caller has it already (the wikitext door reads it once per template for the citation's text
 * too); it is copied, never changed.
 */
export function citationMetadata(
  templateName: string,
  params: Readonly<Record<string, string>>,
  type: string | undefined = citationType(templateName),
  canonical?: Readonly<Record<string, string>>,
): Record<string, string> {
  const metadata = canonical === undefined ? canonicalMetadata(params, citationAliases(templateName)) : { ...canonical };
  const rule = type === undefined ? undefined : positional.get(type);
  if (rule !== undefined) readPositional(params, rule.names, rule.final, metadata);
  return metadata;
}

/** Positional 1..n: all but the last are `names` (numbered), the last is `final`; one alone is a name. */
function readPositional(params: Readonly<Record<string, string>>, names: string, final: string, into: Record<string, string>): void {
  const values: string[] = [];
  for (let i = 1; params[String(i)] !== undefined; i++) values.push(params[String(i)]!);
  if (values.length === 0) return;
  const people = values.length === 1 ? values : values.slice(0, -1);
  people.forEach((value, i) => {
    const key = names.replace('#', i === 0 ? '' : String(i + 1));
    into[key] ??= value;
  });
  if (values.length > 1) into[final] ??= values[values.length - 1]!;
}

const knownTemplates = new Set(Object.keys(citations.templates));

/** Whether the grammar names this template (rather than typing it by a "Cite …" prefix). */
export function isKnownCitationTemplate(templateName: string): boolean {
  return knownTemplates.has(normalizeTemplateName(templateName));
}

/** The names of the vocabulary, `#` marking a person's number (for tests and documentation). */
export const VOCABULARY: readonly string[] = citations.parameters.vocabulary;

// ---------------------------------------------------------------------------------------------
// Parameter values written in wikitext, as plain text. Parsoid's data-mw holds each parameter as
// its wikitext ("[[Le Monde]]", "''Poetics''", "km<sup>2</sup>", "Kyoto {{!}} Definition"); the
// HTML front door has no wikitext parser at hand, and a value needs only its text, so the few
// constructs of a citation value are read here: links show their label, formatting and tags go,
// entities are decoded, and an inline template gives the text its grammar rule
// (grammar/wikitext.json `text`, the rules the wikitext front door renders with) or nothing.

/** Something in the value that is markup; most values hold none and are returned as they are. */
const MARKUP = /\[|\{\{|<|''|&/;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const INNER_TEMPLATE = /\{\{([^{}]*)\}\}/g;
const WIKI_LINK = /\[\[([^[\]|]*)(?:\|([^[\]]*))?\]\]/g;
const EXTERNAL_LINK = /\[(?:https?:)?\/\/[^\s\]]+(?:\s+([^\]]*))?\]/g;
const BOLD_ITALIC = /'{2,}/g;
const TAG = /<\/?[A-Za-z][^<>]*>/g;
/** Templates nest a few levels at most in a citation value; the bound keeps hostile input linear. */
const MAX_TEMPLATE_ROUNDS = 8;

const textRules = new Map(GRAMMAR.wikitext.text.rules.map((r) => [normalizeTemplateName(r.match), r.rule]));

/** A citation parameter value written in wikitext, as the plain text it shows. */
export function plainValue(value: string): string {
  if (!MARKUP.test(value)) return value;
  let out = value.replace(COMMENT, '');
  for (let round = 0; round < MAX_TEMPLATE_ROUNDS && out.includes('{{'); round++) {
    const next = out.replace(INNER_TEMPLATE, (_, inner: string) => templateText(inner));
    if (next === out) break;
    out = next;
  }
  // Until nothing changes: removing one construct can complete another around it
  // ("[[''[http://x.org y]'']]" is a wiki link only once the external link and quotes inside go).
  for (let round = 0; round < MAX_TEMPLATE_ROUNDS; round++) {
    const next = out
      .replace(EXTERNAL_LINK, (_, label: string | undefined) => label ?? '')
      .replace(BOLD_ITALIC, '')
      .replace(TAG, '')
      .replace(WIKI_LINK, (_, target: string, label: string | undefined) => label ?? target.replace(/^:/, ''));
    if (next === out) break;
    out = next;
  }
  return decodeHTMLStrict(out).replace(/\s+/g, ' ').trim();
}

/** Reference.metadata with every value as plain text; a value left empty is dropped. */
export function plainValues(metadata: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in metadata) {
    const value = plainValue(metadata[key]!);
    if (value.length > 0) out[key] = value;
  }
  return out;
}

/** The text of one template call `name|arg|key=value` (already free of inner templates). */
function templateText(inner: string): string {
  const [rawName, ...args] = inner.split('|');
  const name = normalizeTemplateName(rawName!);
  const rule = textRules.get(name) ?? textPatternRule(name);
  if (rule === undefined) return '';
  // No prototype: a parameter named "__proto__" is a parameter like any other.
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let position = 0;
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq < 0) params[String(++position)] = arg.trim();
    else params[arg.slice(0, eq).trim()] = arg.slice(eq + 1).trim();
  }
  // {{2e|régiment}}: the template's name as written, then what its parameters give.
  const text = [rule.name === true ? rawName!.replace(/^[^:]*:/, '').replace(/_/g, ' ').trim() : '', applyRule(rule, params)].filter((v) => v.length > 0).join(rule.sep ?? ' ');
  if (rule.wrap === undefined || text.length === 0) return text;
  const before = rule.lowerCaseWith !== undefined && (params[rule.lowerCaseWith] ?? '').length > 0 ? rule.wrap[0].charAt(0).toLowerCase() + rule.wrap[0].slice(1) : rule.wrap[0];
  return before + text + rule.wrap[1];
}

function applyRule(rule: TextRule, params: Readonly<Record<string, string>>): string {
  if (rule.literal !== undefined) return rule.literal;
  const present = (name: string): string | undefined => (params[name] !== undefined && params[name].length > 0 ? params[name] + (rule.suffixes?.[name] ?? '') : undefined);
  if (rule.param !== undefined) for (const name of rule.param) if (present(name) !== undefined) return present(name)!;
  if (rule.join !== undefined) return rule.join.map(present).filter((v) => v !== undefined).join(rule.sep ?? ' ');
  if (rule.all !== undefined) {
    const values: string[] = [];
    for (let i = 1; present(String(i)) !== undefined; i++) values.push(present(String(i))!);
    return values.join(rule.all);
  }
  return '';
}
