/**
 * A template `{{Name|…}}` or a magic word / parser function `{{#if:…}}`, `{{PAGENAME}}`:
 * wikiparser-node's TranscludeToken (src/transclude.js). Children: `template-name` (one text) or
 * `magic-word-name`, for `#invoke` also `invoke-module` and `invoke-function`, then the
 * parameters. `name` is a template's normalised title (`Template:Cite_web`, set after the build,
 * as the library sets it) or a magic word's canonical name; `module` is `#invoke`'s module title.
 */
import type { Config } from 'wikiparser-node';
import { PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { normalizeTitle, withMain } from '../title.js';
import type { Title } from '../title.js';
import { SyntaxToken } from './syntax.js';
import { ParameterToken, childString, removeComment, trimName } from './parameter.js';

const HEADING_IN_NAME = /^(?:\s|\0\d+[cn]\x7F)*\0(\d+)h\x7F(?:\s|\0\d+[cn]\x7F)*/u;
const ARG_SUBST = /^(?:\s|\0\d+[cn]\x7F)*\0\d+s\x7F/u;
const LEADING_SPACE = /^(?:\s|\0\d+[cn]\x7F)*/u;
const COLON = /[:：]/u;
const NON_SPACE = /\S/u;
const MARKER = /\0(\d+)[^\x7F]*\x7F/gu;
/** A title that stages 0 and 1 would change (the library's `normalizeTitle` parses those first). */
const NEEDS_PARSE = /[<{[=\0\x7F]/u;

type Hook = (token: PlainToken, state: ParseState) => void;
/**
 * The braces stage itself, for the titles that hold braces (`{{ {{{type}}} }}`): set by
 * ../stages/braces.ts, which imports this module (a direct import would be circular).
 */
let bracesStage: Hook | undefined;
export const setBracesStage = (stage: Hook): void => {
  bracesStage = stage;
};

/**
 * A template's or module's title as the library reads it after the build (`#getTitle`): the
 * text is parsed for templates first when it has braces, and the fragment dropped.
 */
function titleOf(text: string, config: Config, include: boolean): Title {
  if (!NEEDS_PARSE.test(text) || bracesStage === undefined) return normalizeTitle(text, 10, config);
  // Only the braces (templates, and a heading: `{{=a#b=}}`) change such a title here: the text
  // has no comments left, and a tag would have made the name invalid.
  const state: ParseState = { config, accum: [], include };
  const root = new PlainToken('root', state, text);
  state.accum.pop();
  bracesStage(root, state);
  const marked = root.raw!;
  const title = normalizeTitle(marked, 10, config);
  if (!title.main.includes('\0')) return title;
  const restore = (s: string): string => s.replace(MARKER, (_, i: string) => restore(state.accum[Number(i)]!.text()));
  return withMain(title, restore(title.main), config);
}

/** Title#getTitle: a title starting with `/` (a subpage of an unnamed page) loses a final `/`. */
const pageTitle = (title: string): string => (title.startsWith('/') ? title.replace(/(.)\/$/u, '$1') : title);

export class TranscludeToken extends Token {
  /** The template's title or the magic word's name, set by the constructor. */
  declare name: string;
  /** `subst:`, `safesubst:` (with their spaces), or the marker of a `{{{|subst:}}}`. */
  modifier = '';
  /** `template` or `magic-word`, decided by the constructor. */
  declare type: 'template' | 'magic-word';
  /** `#invoke`'s module title (`Module:M`), after the build. */
  module: string | undefined = undefined;
  private colon = ':';
  /** Whether the modifier is a raw one (`raw:`, `msg:`): the library's `#raw`. */
  private rawModifier = false;

  /**
   * Use `TranscludeToken.make`: the constructor leaves an invalid template in `accum` (the
   * library throws there instead).
   */
  private constructor(private readonly state: ParseState) {
    super('template', state);
  }

  /**
   * The library's constructor. `parts`: each parameter as `[value]` or `[key, value]` (changed in
   * place, as the library does). Returns undefined for a template whose name is not a title
   * (`{{a[b]}}`), which stays text: nothing is left in `accum`.
   */
  static make(titleIn: string, parts: (string | number)[][], state: ParseState): TranscludeToken | undefined {
    const { accum, config } = state;
    let title = titleIn;
    let heading: number | undefined;
    const hm = HEADING_IN_NAME.exec(title);
    if (hm) {
      heading = Number(hm[1]);
      title = title.replace(`\0${heading}h\x7F`, accum[heading]!.toString().replace(/^\n/u, ''));
    }
    const token = new TranscludeToken(state);
    const { parserFunction, variable } = config;
    const argSubst = ARG_SUBST.exec(title)?.[0];
    if (argSubst !== undefined) {
      token.modifier = argSubst;
      title = title.slice(argSubst.length);
    } else if (title.includes(':')) {
      const [modifier, ...arg] = title.split(':');
      const mt = LEADING_SPACE.exec(arg[0] ?? '')![0];
      if (token.setModifier(`${modifier}:${mt}`, config)) title = arg.join(':').slice(mt.length);
    }
    const colon = title.search(COLON);
    const fullWidth = title[colon] === '：';
    const isFunction = colon !== -1;
    if (isFunction || (parts.length === 0 && !token.rawModifier)) {
      const magicWord = isFunction ? title.slice(0, colon) : title;
      const cleaned = removeComment(magicWord);
      const name = isFunction ? cleaned.slice(cleaned.search(NON_SPACE)) + (fullWidth ? '：' : '') : cleaned.trim();
      const [insensitive, sensitive] = parserFunction;
      const canonical = Object.prototype.hasOwnProperty.call(sensitive, name)
        ? sensitive[name]
        : Object.prototype.hasOwnProperty.call(insensitive, name.toLowerCase()) && insensitive[name.toLowerCase()];
      const isFunc = !('functionHook' in config) || config.functionHook.includes(canonical as string);
      if (isFunction ? canonical && isFunc : variable.includes(canonical as string)) {
        token.name = canonical as string;
        token.type = 'magic-word';
        if (fullWidth) token.colon = '：';
        token.append(new SyntaxToken('magic-word-name', state, magicWord));
        if (isFunction) parts.unshift([title.slice(colon + 1)]);
        if (token.name === 'invoke') {
          for (let i = 0; i < 2; i++) {
            const part = parts.shift();
            if (!part) break;
            token.append(new SyntaxToken(i ? 'invoke-function' : 'invoke-module', state, part.join('=')));
          }
        }
      }
    }
    if (token.type === 'template') {
      const name = removeComment(title).trim();
      if (!normalizeTitle(name, 10, config).valid) {
        accum.pop();
        return undefined;
      }
      token.append(new SyntaxToken('template-name', state, title));
    }
    if (heading !== undefined) {
      // The library empties the heading's slot (`accum[heading] = undefined`); our driver reads
      // every slot, so an inert token takes it: never marked, never built, no hook.
      accum[heading] = new PlainToken('plain', state);
      accum.pop();
    }
    const templateLike = token.isTemplate();
    let anon = 1;
    // Appended at once: one children array of their number (Token#appendAll).
    const params: ParameterToken[] = [];
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j]!;
      if (!(templateLike || (token.name === 'switch' && j > 0) || (token.name === 'tag' && j > 1))) {
        part[0] = part.join('=');
        part.length = 1;
      }
      const p =
        part.length === 1
          ? new ParameterToken(anon++, part[0] as string, state)
          : new ParameterToken(part[0] as string, part[1] as string, state);
      params.push(p);
    }
    if (params.length > 0) token.appendAll(params);
    return token;
  }

  /**
   * The library's `setModifier` while it parses (`Shadow.running`): `subst:`, `safesubst:` and
   * the raw ones (`raw:`, `msg:`) are taken; after a raw one, a name without parameters is not
   * read as a variable.
   */
  private setModifier(modifier: string, config: Config): boolean {
    const [, , raw, subst] = config.parserFunction;
    const lc = removeComment(modifier).trim();
    if (modifier && !lc.endsWith(':')) return false;
    const magicWord = lc.slice(0, -1).toLowerCase();
    const isRaw = raw.includes(magicWord);
    if (isRaw || subst.includes(magicWord) || !modifier) {
      this.modifier = modifier;
      this.rawModifier = isRaw;
      return Boolean(modifier);
    }
    return false;
  }

  /** Whether it is a template or `#invoke` (a module). */
  isTemplate(): boolean {
    return this.type === 'template' || this.name === 'invoke';
  }

  override afterBuild(): void {
    const { config, include, accum } = this.state;
    // buildFromStr(modifier, String): markers replaced by their tokens' wikitext.
    if (this.modifier.includes('\0')) this.modifier = this.modifier.replace(MARKER, (_, i: string) => String(accum[Number(i)]));
    if (this.type === 'template') {
      this.name = pageTitle(titleOf(removeComment(this.childNodes[0]!.text()), config, include).title);
    } else if (this.name === 'invoke') {
      this.module = titleOf(`Module:${removeComment(this.childNodes[1]!.text())}`, config, include).title;
    }
  }

  override toString(): string {
    return this.serialize(false);
  }

  /** The wikitext, without comments when `skip` (the library's `toString(skip)`). */
  serialize(skip: boolean): string {
    const { childNodes } = this;
    let s = `{{${this.modifier}`;
    if (this.type === 'magic-word') {
      s += childString(childNodes[0]!, skip);
      if (childNodes.length > 1) s += this.colon;
      for (let i = 1; i < childNodes.length; i++) s += (i > 1 ? '|' : '') + childString(childNodes[i]!, skip);
    } else for (let i = 0; i < childNodes.length; i++) s += (i > 0 ? '|' : '') + childString(childNodes[i]!, skip);
    return `${s}}}`;
  }

  override text(): string {
    if (this.type === 'magic-word' && this.name === 'vardefine') return '';
    const { childNodes } = this;
    let s = `{{${this.modifier}`;
    if (this.type === 'magic-word') {
      s += childNodes[0]!.text();
      if (childNodes.length > 1) s += this.colon;
      for (let i = 1; i < childNodes.length; i++) s += (i > 1 ? '|' : '') + childNodes[i]!.text();
    } else for (let i = 0; i < childNodes.length; i++) s += (i > 0 ? '|' : '') + childNodes[i]!.text();
    return `${s}}}`;
  }

  /** The parameters, in order. */
  getAllArgs(): ParameterToken[] {
    const { childNodes } = this;
    const i = childNodes.findIndex((c) => c.type === 'parameter');
    return i === -1 ? [] : (childNodes.slice(i) as ParameterToken[]);
  }

  getAnonArgs(): ParameterToken[] {
    return this.getAllArgs().filter((p) => p.anon);
  }

  /** The parameter that counts for `key`: the last of that name, as in MediaWiki. */
  getArg(key: string | number): ParameterToken | undefined {
    const k = trimName(String(key));
    const { childNodes } = this;
    for (let i = childNodes.length - 1; i >= 0; i--) {
      const c = childNodes[i]!;
      if (c.type === 'parameter' && c.name === k) return c as ParameterToken;
    }
    return undefined;
  }

  getValue(key: string | number): string | undefined {
    return this.getArg(key)?.getValue();
  }
}
