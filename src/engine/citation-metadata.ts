/**
 * Citation template parameters → Reference.metadata in one vocabulary, CS1's English parameter
 * names (Help:Citation Style 1), whichever wiki and template wrote them: frwiki's `titre` and
 * `consulté le`, eswiki's `fechaacceso`, CS1's own `author1-last` all come out as `title`,
 * `access-date`, `last`. The mapping is data (grammar/citations.json `parameters`); both front
 * doors (HTML data-mw and wikitext) call `citationMetadata`, so they agree.
 */
import { citationType, normalizeTemplateName } from './grammar.js';
import { GRAMMAR } from './grammar/load.js';

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
 * Reference.metadata for a citation template's parameters (as written, in order): each name in
 * the vocabulary, the first one written winning when two mean the same; names without a CS1
 * equivalent left out. Short-footnote templates ({{sfn}}, {{harvnb}}: `type` "short") also read
 * their positional parameters (grammar `positional`).
 */
export function citationMetadata(
  templateName: string,
  params: Readonly<Record<string, string>>,
  type: string | undefined = citationType(templateName),
): Record<string, string> {
  const aliases = scoped.size === 0 ? undefined : scoped.get(normalizeTemplateName(templateName));
  const metadata: Record<string, string> = {};
  for (const param in params) {
    const key = canonicalParameter(param, aliases);
    if (key !== undefined && metadata[key] === undefined) metadata[key] = params[param]!;
  }
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
