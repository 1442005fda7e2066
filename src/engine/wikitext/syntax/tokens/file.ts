/**
 * Files: wikiparser-node's FileToken (`file`, src/link/file.js), its GalleryImageToken
 * (`gallery-image`, src/link/galleryImage.js: a line of `<gallery>`, without brackets) and the
 * ImageParameterToken (`image-parameter`, src/imageParameter.js) of every option after the target.
 * An option is named by the first syntax of `config.img` (localized words included, in the
 * configuration's order) that matches and whose value is valid; anything else is a `caption`.
 * The caption and `alt=` hold the markers of what the links stage read in them (links, quotes,
 * external link URLs); as in the library (its `isPlain`), the caption is then read from stage 7
 * on without lists (external links, magic links, conversion), `alt=` by the conversion stage only.
 */
import type { Config } from 'wikiparser-node';
import { AstText, PlainToken, Token } from '../token.js';
import type { ParseState } from '../token.js';
import { normalizeTitle } from '../title.js';
import type { Title } from '../title.js';
import { LAST_STAGE, LinkBaseToken, reparsedTitle, rereadToken } from './link.js';

/** The options a gallery's image accepts (wikiparser-node's `galleryParams`); any other is `invalid`. */
const GALLERY_PARAMS = new Set(['alt', 'link', 'lang', 'page', 'caption']);

/** Splits an image's options at `|` outside `-{…}-` (wikiparser-node's `explode`). */
function explode(str: string | undefined): string[] {
  if (str === undefined) return [];
  const out: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c === 0x7c /* | */) {
      if (depth === 0) {
        out.push(str.slice(last, i));
        last = i + 1;
      }
    } else if (c === 0x2d /* - */ && str.charCodeAt(i + 1) === 0x7b /* { */) {
      depth++;
      i++;
    } else if (c === 0x7d /* } */ && str.charCodeAt(i + 1) === 0x2d /* - */) {
      depth--;
      i++;
    }
  }
  out.push(str.slice(last));
  return out;
}

/**
 * An image option's syntax from `config.img`, with its pattern (wikiparser-node's, unescaped as
 * there) and a cheap necessary condition: the trimmed option must be the syntax itself, or start
 * and end with what surrounds its `$1`, when those are plain characters.
 */
interface ImageSyntax {
  readonly syntax: string;
  readonly key: string;
  readonly regex: RegExp;
  /** The whole syntax, when it has no `$1` and only plain characters. */
  readonly literal: string | undefined;
  readonly prefix: string;
  readonly suffix: string;
}

const META = /[\\^$.*+?()[\]{}|/]|^\s|\s$/u;
const imageSyntaxes = new WeakMap<object, readonly ImageSyntax[]>();
function imageSyntaxesOf(img: Record<string, string>): readonly ImageSyntax[] {
  let list = imageSyntaxes.get(img);
  if (list === undefined) {
    const out: ImageSyntax[] = [];
    for (const syntax in img) {
      if (!Object.prototype.hasOwnProperty.call(img, syntax)) continue;
      const regex = new RegExp(String.raw`^(\s*(?!\s))${syntax.replace('$1', '(.*)')}${syntax.endsWith('$1') ? '(?=$|\n)' : ''}(\s*)$`, 'u');
      const i = syntax.indexOf('$1');
      const before = i === -1 ? syntax : syntax.slice(0, i);
      const after = i === -1 ? '' : syntax.slice(i + 2);
      const plain = !META.test(before) && !META.test(after);
      out.push({
        syntax,
        key: img[syntax]!,
        regex,
        literal: i === -1 && plain && syntax !== '' ? syntax : undefined,
        prefix: i !== -1 && plain ? before : '',
        suffix: i !== -1 && plain ? after : '',
      });
    }
    list = out;
    imageSyntaxes.set(img, list);
  }
  return list;
}

interface UrlRegexes {
  like: RegExp;
  url: RegExp;
}
const urlRegexes = new Map<string, UrlRegexes>();
function urlRegex(protocol: string): UrlRegexes {
  let r = urlRegexes.get(protocol);
  if (r === undefined) {
    const zs = String.raw` \xA0\u1680\u2000-\u200A\u202F\u205F\u3000`;
    const common = String.raw`[^[\]<>"\0-\x1F\x7F${zs}\uFFFD]`;
    r = {
      like: new RegExp(String.raw`^(?:${protocol}|//|\0\d+m\x7F)`, 'iu'),
      url: new RegExp(String.raw`^(?:(?:${protocol}|//)(?:\[[\da-f:.]+\]|${common})|\0\d+m\x7F)(?:${common}|\0\d+[cn!~]\x7F)*$`, 'iu'),
    };
    urlRegexes.set(protocol, r);
  }
  return r;
}

const COMMENTS = /\0\d+[cn]\x7F/gu;
const TEMPLATES = /\0\d+t\x7F/gu;
const TEMPLATES_QUOTES = /\0\d+[tq]\x7F/gu;
const WIDTH = /^(?:\d+x?|\d*x\d+)(?:\s*px)?$/u;
const LANG = /[^a-z\d-]/u;

/** Whether an option's value is valid for its key (wikiparser-node's `validate`); a link gives its target. */
function validate(key: string, raw: string, config: Config, extOrType: string | undefined, built = false): boolean | string | Title {
  const val = raw.replace(COMMENTS, '').trim();
  let value = val.replace(key === 'link' ? TEMPLATES_QUOTES : TEMPLATES, '').trim();
  switch (key) {
    case 'width':
      return (!value && Boolean(val)) || WIDTH.test(value);
    case 'link': {
      const isGalleryImage = extOrType === 'gallery-image';
      if (!value) return val;
      const { like, url } = urlRegex(config.protocol);
      if (like.test(value)) return url.test(value) ? val : isGalleryImage;
      if (value.startsWith('[[') && value.endsWith(']]')) value = value.slice(2, -2);
      // Once built, the value is read again by stages 0 and 1 first, as the library does.
      const title = (built ? reparsedTitle : normalizeTitle)(value, 0, config, { decode: true, selfLink: true });
      return title.valid ? title : isGalleryImage;
    }
    case 'lang':
      return (extOrType === 'svg' || extOrType === 'svgz') && !LANG.test(value);
    case 'alt':
    case 'class':
    case 'manualthumb':
      return true;
    case 'page':
      return (extOrType === 'djvu' || extOrType === 'djv' || extOrType === 'pdf') && Number(value) > 0;
    default:
      return Boolean(value) && !Number.isNaN(Number(value));
  }
}

/** A file's extension, lower-cased (wikiparser-node's Title `extension`). */
function extensionOf(title: Title): string | undefined {
  const i = title.main.lastIndexOf('.');
  return i === -1 ? undefined : title.main.slice(i + 1).toLowerCase();
}

const URL_FUNCTION = /^\{\{\s*(?:filepath|(?:full|canonical)urle?):./iu;

/** One option of a file: `thumb`, `200px`, `link=…`, `alt=…`, the caption. */
const noLists = new WeakMap<Config, Config>();

/** The configuration with lists excluded (a caption's), one copy per configuration. */
function withoutLists(config: Config): Config {
  const excludes = (config as Config & { excludes: string[] }).excludes;
  if (excludes.includes('list')) return config;
  let copy = noLists.get(config);
  if (copy === undefined) {
    copy = { ...config, excludes: [...excludes, 'list'] } as Config;
    noLists.set(config, copy);
  }
  return copy;
}

export class ImageParameterToken extends PlainToken {
  declare type: 'image-parameter';
  declare name: string;

  /** The option as written around its value (`$1` where the value is), empty for a caption. */
  syntax = '';
  /** For `link=`: its target (a Title, a URL, or `''`), read once the tree is built. */
  link: Title | string | boolean | undefined = undefined;
  private readonly imageConfig: Config;

  constructor(str: string, extension: string | undefined, type: string | undefined, state: ParseState) {
    super('image-parameter', state);
    const { config } = state;
    this.imageConfig = config;
    const trimmed = str.trim();
    for (const { syntax, key, regex, literal, prefix, suffix } of imageSyntaxesOf(config.img)) {
      if (literal === undefined ? !trimmed.startsWith(prefix) || !trimmed.endsWith(suffix) : trimmed !== literal) continue;
      const mt = regex.exec(str);
      if (mt === null) continue;
      if (mt.length === 4 && validate(key, mt[2]!, config, key === 'link' ? type : extension) === false) continue;
      if (mt.length === 3) this.syntax = str;
      else {
        this.syntax = mt[1]! + syntax + mt[3]!;
        if (key === 'alt') {
          // Read by the conversion stage (the library's MAX_STAGE - 1).
          this.raw = mt[2]!;
          this.config = config;
          this.stage = 10;
        } else this.append(new AstText(mt[2]!));
      }
      this.name = key;
      return;
    }
    // A caption is read from the external links on, never as a list.
    this.raw = str;
    this.config = withoutLists(config);
    this.stage = 7;
    this.name = 'caption';
  }

  override afterBuild(): void {
    if (this.parentNode?.type === 'gallery-image' && !GALLERY_PARAMS.has(this.name!)) this.name = 'invalid';
    if (this.name === 'link') {
      const value = super.text().trim();
      if (URL_FUNCTION.test(value)) this.link = value;
      else {
        const link = validate('link', value, this.imageConfig, this.parentNode?.type, true);
        this.link = link === true ? undefined : link;
      }
    }
  }

  override toString(): string {
    return this.syntax ? this.syntax.replace('$1', super.toString()) : super.toString();
  }

  override text(): string {
    return this.syntax ? this.syntax.replace('$1', super.text()).trim() : super.text().trim();
  }
}

/** `[[File:Name|options]]`: wikiparser-node's FileToken. */
export class FileToken extends LinkBaseToken {
  declare type: 'file' | 'gallery-image' | 'imagemap-image';
  declare name: string;

  /** Typed for the door: this token's first child is always a token. */
  override get firstChild(): Token {
    return this.childNodes[0] as Token;
  }

  /** The effective `link=` option's target, else the file's own title. */
  link!: Title | string | boolean;

  constructor(link: string, text: string | undefined, state: ParseState, delimiter = '|', known?: Title, type?: string) {
    super(type === 'gallery-image' ? 'gallery-image' : 'file', link, undefined, state, delimiter, known);
    const extension = extensionOf(known ?? this.constructionTitle(link));
    for (const part of explode(text)) this.append(new ImageParameterToken(part, extension, type, state));
  }

  /** The title read while the target still holds markers (wikiparser-node's `getTitle(true, true)`). */
  protected constructionTitle(link: string): Title {
    return normalizeTitle(link, 0, this.linkConfig, { decode: true, selfLink: true });
  }

  override afterBuild(): void {
    const title = this.settle();
    let arg: ImageParameterToken | undefined;
    for (let i = this.childNodes.length - 1; i > 0; i--) {
      const c = this.childNodes[i] as ImageParameterToken;
      if (c.name === 'link') {
        arg = c;
        break;
      }
    }
    if (arg === undefined) this.link = title;
    else {
      // The option's own `afterBuild` comes later (accum order): read its target now.
      arg.afterBuild();
      this.link = arg.link ?? title;
    }
  }
}

/** A line of `<gallery>`: `File:Name|options`, without brackets; its options were read by stages 0-9 first. */
export class GalleryImageToken extends FileToken {
  constructor(link: string, text: string | undefined, state: ParseState, known?: Title) {
    let alt: string | undefined;
    if (text !== undefined) {
      // Read with the gallery's configuration, which the extension tag's code set.
      const { accum } = state;
      const at = accum.length;
      const token = new PlainToken('plain', state, text);
      rereadToken(token, state, LAST_STAGE);
      alt = token.raw!;
      // As the library, the throwaway token leaves the accum: the markers made meanwhile point one
      // place too far until the extension tag takes its place before its content (tokens/ext.ts).
      accum.splice(at, 1);
    }
    super(link, alt, state, '|', known, 'gallery-image');
    this.bracket = false;
  }

  protected override constructionTitle(link: string): Title {
    return normalizeTitle(link, 6, this.linkConfig, { decode: true });
  }

  protected override readTitle(): Title {
    return normalizeTitle(this.childNodes[0]!.toString(), 6, this.linkConfig, { decode: true });
  }
}
