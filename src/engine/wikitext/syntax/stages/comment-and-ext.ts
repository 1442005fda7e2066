/**
 * Stage 0: comments, extension tags, `<noinclude>`/`<includeonly>`/`<onlyinclude>` tags
 * (wikiparser-node's parser/commentAndExt.js). An article is never read as transcluded, so
 * `<includeonly>…</includeonly>` is a tag pair that shows nothing and `<onlyinclude>` a bare tag.
 * Not ported: `<translate>` (no Wikipedia's configuration has the tag).
 */
import type { Config } from 'wikiparser-node';
import { PlainToken, Token } from '../token.js';
import type { ParseState, Stage } from '../token.js';
import { ExtToken, IncludeToken } from '../tokens/ext.js';
import { CommentToken, NoincludeToken } from '../tokens/hidden.js';
import { parseBraces } from './braces.js';

const regexes = [new Map<string, RegExp>(), new Map<string, RegExp>()] as const;

/** The library's pattern for a list of extension tags (`bar`) and the include tags of the mode. */
function extRegex(ext: readonly string[], includeOnly: boolean): RegExp {
  const key = ext.join('|');
  const cache = regexes[includeOnly ? 1 : 0];
  let re = cache.get(key);
  if (re === undefined) {
    const noinclude = includeOnly ? 'includeonly' : '(?:no|only)include';
    const include = includeOnly ? 'noinclude' : 'includeonly';
    re = new RegExp(
      String.raw`<!--[\s\S]*?(?:-->|$)|<${noinclude}(?:\s[^>]*)?/?>|</${noinclude}\s*>|<(${key})(\s[^>]*?)?(?:/>|>([\s\S]*?)</(${'\\1'}\s*)>)|<(${include})(\s[^>]*?)?(?:/>|>([\s\S]*?)(?:</(${include}\s*)>|$))`,
      'giu',
    );
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/** One text's comments and tags replaced by markers of their tokens. */
export function commentAndExt(wikitext: string, state: ParseState, includeOnly: boolean): string {
  // Every comment and tag starts with `<`.
  if (!wikitext.includes('<')) return wikitext;
  const config: Config = state.config;
  const re = extRegex(config.ext, includeOnly);
  if (!re.test(wikitext)) return wikitext;
  re.lastIndex = 0;
  return wikitext.replace(
    re,
    (
      substr: string,
      name: string | undefined,
      attr: string | undefined,
      inner: string | undefined,
      closing: string | undefined,
      include: string | undefined,
      includeAttr: string | undefined,
      includeInner: string | undefined,
      includeClosing: string | undefined,
    ) => {
      const l = state.accum.length;
      let ch = 'n';
      if (name) {
        ch = 'e';
        new ExtToken(name, attr, inner, closing, state, readNested);
      } else if (substr.startsWith('<!--')) {
        ch = 'c';
        const closed = substr.endsWith('-->');
        new CommentToken(substr.slice(4, closed ? -3 : undefined), closed, state);
      } else if (include) {
        new IncludeToken(include, includeAttr, includeInner, includeClosing, state);
      } else {
        new NoincludeToken(substr, state);
      }
      return `\0${l}${ch}\x7F`;
    },
  );
}

/**
 * `<references>`' content as the library reads it (src/nested.js): comments and tags, then
 * templates, on the text itself (without the mark the braces stage puts before a token's
 * content, which only a root goes without).
 */
function readNested(text: string, state: ParseState): string {
  const read = commentAndExt(text, state, false);
  if (!read) return read;
  const t = new PlainToken('root', state, read);
  state.accum.pop();
  parseBraces(t, state);
  return t.raw!;
}

export const parseCommentAndExt: Stage = (token, state) => {
  token.raw = commentAndExt(token.raw!, state, state.include);
};
