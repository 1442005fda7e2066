/**
 * What the grammar knows about templates for telling infoboxes from everything else, compiled
 * once from grammar/wikitext.json `infobox` (names, prefixes and suffixes of infoboxes in every
 * language; hidden metadata templates; templates that are never infoboxes; templates that build
 * one infobox in sequence; presentational parameters), `text.units` and `text.patterns`. Names are taken as
 * normalized template names (lower case, one space for `_` and runs of spaces, no namespace: see
 * `WikiProfile.templateName`), parameter names as `parameterKey` gives them.
 */
import { GRAMMAR } from '../grammar/load.js';
import type { TextRule } from '../grammar/schemas.js';

const { infobox, text } = GRAMMAR.wikitext;
const set = (rules: readonly { match: string }[]): ReadonlySet<string> => new Set(rules.map((r) => r.match));
const list = (rules: readonly { match: string }[]): readonly string[] => rules.map((r) => r.match);

const infoboxNames = set(infobox.names);
const infoboxPrefixes = list(infobox.prefixes);
const infoboxSuffixes = list(infobox.suffixes);
const hidden = set(infobox.hiddenMetadata);
const notInfoboxNames = set(infobox.notInfobox.names);
const notInfoboxPrefixes = list(infobox.notInfobox.prefixes);
const sequenceRoles = new Map<string, 'start' | 'end'>();
for (const s of infobox.sequences) {
  sequenceRoles.set(s.start, 'start');
  sequenceRoles.set(s.end, 'end');
}
const presentationalNames = set(infobox.presentational.names);
const presentationalPrefixes = list(infobox.presentational.prefixes);
const presentationalSuffixes = list(infobox.presentational.suffixes);
const units = new Map(text.units.map((u) => [u.match, u.display]));
// Anchored here so that a pattern is always a whole name: `\d+e` never matches "2e guerre mondiale".
const patterns = text.patterns.map((p) => [new RegExp(`^(?:${p.match})$`, 'u'), p.rule] as const);

const startsWithAny = (name: string, prefixes: readonly string[]): boolean => prefixes.some((p) => name.startsWith(p));
const endsWithAny = (name: string, suffixes: readonly string[]): boolean => suffixes.some((s) => name.endsWith(s) && name.length > s.length);

/** A parameter name as the presentational lists are written: lower case, `_` and runs of spaces as one space. */
export function parameterKey(name: string): string {
  return name.toLowerCase().replace(/[\s_]+/g, ' ').trim();
}

/** Whether a template renders an infobox by the grammar's names, prefixes or suffixes (hidden metadata never). */
export function isInfoboxName(name: string): boolean {
  if (hidden.has(name)) return false;
  // A subpage ("…/dernière année Infobox") is a helper template, never a box named by its ending.
  return infoboxNames.has(name) || startsWithAny(name, infoboxPrefixes) || (!name.includes('/') && endsWithAny(name, infoboxSuffixes));
}

/** Templates that hold data the wiki never shows ({{Persondata}}, {{Personendaten}}): never an infobox, never text. */
export function isHiddenMetadata(name: string): boolean {
  return hidden.has(name);
}

/** Hatnotes, navigation boxes, maintenance tags, coordinates, variant tables, image layouts: never an infobox, whatever their shape. */
export function isNeverInfobox(name: string): boolean {
  return hidden.has(name) || notInfoboxNames.has(name) || startsWithAny(name, notInfoboxPrefixes);
}

/** For infoboxes written as a sequence of templates (frwiki {{Taxobox début}} … {{Taxobox fin}}): the template's role. */
export function infoboxSequence(name: string): 'start' | 'end' | undefined {
  return sequenceRoles.get(name);
}

/** A file name ("Flag of Germany.svg") or a size ("125px", "250x200px"), whatever the parameter is called. */
const FILE_VALUE = /^[^|\n[\]{}]{1,240}\.(?:jpe?g|png|svg|gif|tiff?|webp)$/i;
const SIZE_VALUE = /^\d*x?\d+\s*px$/i;

/**
 * Whether an infobox parameter says how the box looks rather than what the article says: by its
 * name (the grammar's presentational names, prefixes, suffixes; `name` as written or as
 * `parameterKey` gives it) or, in any language, by its value: a bare file name or a size.
 */
export function isPresentationalParameter(name: string, value?: string): boolean {
  const key = parameterKey(name);
  if (presentationalNames.has(key) || startsWithAny(key, presentationalPrefixes) || endsWithAny(key, presentationalSuffixes)) return true;
  const v = value?.trim();
  return v !== undefined && (FILE_VALUE.test(v) || SIZE_VALUE.test(v));
}

/** A Module:Convert unit code as it reads ("km2" → "km^2"); the code itself when the grammar has no entry. */
export function unitDisplay(code: string): string {
  return units.get(code.trim()) ?? code.trim();
}

/**
 * The text rule of a template named by a family rather than one name (grammar `text.patterns`:
 * frwiki's ordinals {{2e}}, {{153e}}, {{1re}}, centuries {{XIXe siècle}}), or undefined. `name` is
 * normalized as `WikiProfile.templateName` gives it.
 */
export function textPatternRule(name: string): TextRule | undefined {
  for (const [re, rule] of patterns) if (re.test(name)) return rule;
  return undefined;
}
