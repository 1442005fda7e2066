/**
 * A template's parameter by name, as the token's own `getArg` finds it (the last of that name,
 * as in MediaWiki), for the names the door asks by: the grammar's and its own, written without
 * surrounding white space. `getArg` first trims the key with a regular expression, at every call;
 * here a key that needs no trimming skips it (the door asks a template for a dozen names, of every
 * citation, footnote, date and infobox), and any other goes to `getArg`.
 */
import type { ParameterToken, TranscludeToken } from './syntax/types.js';

export function argOf(t: TranscludeToken, key: string): ParameterToken | undefined {
  if (key.length === 0 || trimmedAway(key.charCodeAt(0)) || trimmedAway(key.charCodeAt(key.length - 1))) return t.getArg(key);
  const { childNodes } = t;
  for (let i = childNodes.length - 1; i >= 0; i--) {
    const c = childNodes[i]!;
    if (c.type === 'parameter' && (c as ParameterToken).name === key) return c as ParameterToken;
  }
  return undefined;
}

/** `t.getValue(key)`: the value of `argOf(t, key)`. */
export function valueOf(t: TranscludeToken, key: string): string | undefined {
  return argOf(t, key)?.getValue();
}

/** What the token's key trimming removes at either end: space, tab, line feed, NUL, vertical tab. */
function trimmedAway(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 0 || c === 11;
}
