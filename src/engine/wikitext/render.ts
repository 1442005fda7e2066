/**
 * Renders parsed wikitext to clean plain text plus the links and citations in it: formatting,
 * comments, magic words, categories and unknown templates never become text; wiki links become
 * absolute URLs; known inline templates become text by the rules of grammar/wikitext.json.
 * The wikitext counterpart of src/engine/inline.ts, with the same `clean` and CUT conventions.
 */
import type { Citation, Link } from '../../schema/article.js';
import type {
  AstNodes,
  ExtLinkToken,
  ExtToken,
  FileToken,
  HtmlToken,
  LinkToken,
  ParameterToken,
  Token,
  TranscludeToken,
} from './syntax/types.js';
import { CUT } from '../cut.js';
import { MAY_CHANGE as CLEAN_MAY_CHANGE, clean, readsAsExponent, TextRope } from '../text.js';
import { decodeEntities } from '../entities.js';
import { unwrapTex } from '../math.js';
import { citationType } from '../grammar.js';
import { converterShows } from './variants.js';
import { MAGIC_WORDS, SILENT_TOKENS, TAGS, isAnchorLink, isLanguageCode, moduleRule, templateDisplayName, templateKind } from './grammar.js';
import type { Casing } from './grammar.js';
import { citationText } from './citation-text.js';
import { unitDisplay } from '../wiki/templates.js';
import type { TextRule } from './grammar.js';
import type { Scope } from './scope.js';
import { blankCitation } from './found.js';
import type { FootnoteUse, Found } from './found.js';
import { linkTarget } from './links.js';
import { coordText, isCoordTemplate } from './coord.js';
import { memoized } from '../memo.js';

export interface RenderOptions {
  /** Abstract rendering: pronunciation guides are cut out and marked with CUT. */
  abstract?: boolean;
  /** Inside a reference's own text: nested <ref>s are not citations of the article. */
  inReference?: boolean;
  /** Inside a table cell: nested tables are entries of their own, not cell text. */
  skipTables?: boolean;
  /**
   * A reading for its text alone (a heading, the abstract, a label, a probe): footnotes in
   * parameters the text does not show are not searched for (Renderer.citationsIn, which would
   * also add the text of templates nested there). Its finds are its caller's to drop.
   */
  textOnly?: boolean;
  /** false: a numeric superscript is glued on; otherwise it reads "km^2", "6:7^7", as the HTML door writes it (../inline.ts). */
  markSuperscripts?: boolean;
}

/** A piece of block content: a token, or a slice of a text node cut at a line break. */
export type Piece = AstNodes | string;

export interface Rendered {
  value: string;
  links: Link[];
  citations: Citation[];
  /** Files met inline; the block walker turns them into image parts. */
  files: FileToken[];
  /** Footnote uses, infobox and description templates met, in document order (./found.ts). */
  found: Found[];
  /**
   * Whether the same nodes read as the abstract (`abstract` and `textOnly`) may give another
   * value: a pronunciation guide was met (cut there), or reading hidden parameters for footnotes
   * moved the empty-bracket mark (see Renderer.citationsIn). When false the abstract's value is
   * this one, and the walker does not render the lead twice.
   */
  abstractDiffers: boolean;
}

/** Beyond this nesting of tokens the rest is read as the parser's plain text, never recursed. */
const MAX_DEPTH = 120;


/** What `trim` keeps: JavaScript's `\s` is trim's white space and line terminators. */
const NOT_SPACE = /\S/;

/** The text so far is a TextRope: its end kept apart, so that asking how it ends never flattens it. */
class Renderer extends TextRope {
  /** Whether the text holds anything but white space (`text.trim() !== ''`, which would flatten it too). */
  private shows = false;
  readonly links: Link[] = [];
  readonly citations: Citation[] = [];
  readonly files: FileToken[] = [];
  readonly found: Found[] = [];
  /** The last template that showed nothing inside a bracket (see node()). */
  private marked: AstNodes | undefined;
  /** See Rendered.abstractDiffers. */
  abstractDiffers = false;

  /** Whether footnotes and templates met are found: not in a reference's own text, where they are not the article's. */
  readonly finds: boolean;
  /** Whether footnotes in parameters the text does not show are searched for (not in a text-only reading). */
  readonly searchesHidden: boolean;

  constructor(
    readonly scope: Scope,
    readonly options: RenderOptions = {},
  ) {
    super();
    this.finds = options.inReference !== true;
    this.searchesHidden = this.finds && options.textOnly !== true;
  }

  nodes(nodes: readonly Piece[], depth: number): void {
    for (const n of nodes) this.node(n, depth);
  }

  node(n: Piece, depth: number): void {
    if (typeof n === 'string') {
      this.append(escapeSentinels(decodeEntities(n)));
      return;
    }
    // The type once: every node class reads it through a getter of its own.
    const type = n.type;
    if (type === 'text') {
      this.append(escapeSentinels(decodeEntities(n.data)));
      return;
    }
    const t = n as Token;
    if (SILENT_TOKENS.has(type)) return;
    if (depth > MAX_DEPTH) {
      this.append(` ${escapeSentinels(decodeEntities(safeText(t)))} `);
      return;
    }
    switch (type) {
      case 'template': {
        const before = this.text.length;
        this.template(t as TranscludeToken, depth);
        // A template that shows nothing right inside a bracket ("({{unknown}})") leaves a mark,
        // so the empty brackets go with it (finish()); brackets written empty stay. Read from the
        // tree, not from this.text, which would be flattened at every template.
        if (this.text.length === before && inBrackets(t, this.marked)) {
          this.append(EMPTY);
          this.marked = t;
        }
        return;
      }
      case 'magic-word':
        this.magicWord(t as TranscludeToken, depth);
        return;
      case 'link':
        this.link(t as LinkToken, depth);
        return;
      case 'file':
        this.files.push(t as FileToken);
        return;
      case 'ext':
        this.extension(t as ExtToken, depth);
        return;
      case 'ext-link':
        this.extLink(t as ExtLinkToken, depth);
        return;
      case 'free-ext-link': {
        const url = String(t).trim();
        this.append(escapeSentinels(url));
        if (/^https?:\/\//i.test(url)) this.links.push({ url, text: url }); // the scheme as written, as on the HTML path
        return;
      }
      case 'html': {
        const html = t as HtmlToken;
        const tag = html.name.toLowerCase();
        if (TAGS.lineBreak.has(tag)) this.append(' ');
        else if (TAGS.superscript.has(tag) && !html.closing && this.options.markSuperscripts !== false && this.isExponent(html.nextSibling)) this.append('^');
        return;
      }
      case 'list':
      case 'dd':
        // A list marker inside a template parameter or cell: the items read as one text.
        this.append(this.shows ? '; ' : ' ');
        return;
      case 'table':
        if (this.options.skipTables === true) return;
        this.append(' ');
        this.nodes(t.childNodes, depth + 1);
        this.append(' ');
        return;
      case 'td':
      case 'tr':
        this.append(' ');
        this.nodes(t.childNodes, depth + 1);
        this.append(' ');
        return;
      case 'image-parameter':
        return;
      case 'converter': {
        const shows = converterShows(t, this.scope.language);
        if ('raw' in shows) this.append(escapeSentinels(decodeEntities(shows.raw)));
        else this.nodes(shows.nodes, depth + 1);
        return;
      }
      default:
        this.nodes(t.childNodes, depth + 1);
    }
  }

  /** A `<sup>` whose text, glued on, would read as part of the number or word before it (../text.ts). */
  private isExponent(next: AstNodes | undefined): boolean {
    return next !== undefined && next.type === 'text' && readsAsExponent(this.end(), next.data);
  }

  private link(t: LinkToken, depth: number): void {
    const raw = decodeEntities(sourceOf(t.firstChild));
    const title = t.link;
    const inNamespace = typeof title !== 'string' && title.ns !== 0;
    const target = linkTarget(raw, this.scope.site, this.scope.language, inNamespace);
    if (target.kind === 'interlanguage') return;
    const shown =
      t.childNodes.length > 1
        ? this.renderApart(t.childNodes.slice(1), depth + 1)
        : escapeSentinels(raw.replace(/^\s*:/, '').replace(/#.*$/, '').trim() || raw.trim());
    this.append(shown);
    if (target.kind !== 'url') return;
    const text = finish(shown);
    this.links.push(text.length > 0 ? { url: target.url, text } : { url: target.url });
  }

  private extLink(t: ExtLinkToken, depth: number): void {
    const url = sourceOf(t.firstChild).trim();
    // [http://x] without text is shown as a number, which is not text.
    const shown = t.childNodes.length > 1 ? this.renderApart(t.childNodes.slice(1), depth + 1) : '';
    this.append(shown);
    if (!/^(https?:)?\/\//i.test(url)) return;
    const absolute = url.startsWith('//') ? `https:${url}` : url; // the scheme as written (site.ts resolveHref)
    const text = finish(shown);
    this.links.push(text.length > 0 ? { url: absolute, text } : { url: absolute });
  }

  private extension(t: ExtToken, depth: number): void {
    const name = t.name.toLowerCase();
    if (TAGS.ref.has(name)) {
      if (this.finds) this.citations.push(this.use({ kind: 'ref', token: t, citation: blankCitation() }));
      return;
    }
    if (TAGS.math.has(name)) {
      // Inline math is its TeX in the running text; a displayed formula never reaches here (rules/paragraph.ts).
      this.append(` ${literal(texOf(t))} `);
      return;
    }
    if (TAGS.literal.has(name)) {
      // As written: "<nowiki>[[x]]</nowiki>" is the text "[[x]]", never scrubbed as markup.
      this.append(` ${literal(decodeEntities(safeText(t.lastChild)))} `);
      return;
    }
    if (TAGS.content.has(name)) this.nodes(t.lastChild.childNodes, depth + 1);
    else if (TAGS.gallery.has(name)) {
      for (const c of t.lastChild.childNodes) if (c.type === 'gallery-image') this.files.push(c as FileToken);
    }
  }

  private magicWord(t: TranscludeToken, depth: number): void {
    const name = t.name.toLowerCase();
    // {{#tag:ref|content|name=…|group=…}} is a <ref> written as a parser function.
    if (MAGIC_WORDS.tag.has(name)) {
      if (this.finds && TAGS.ref.has(t.getValue('1')?.trim().toLowerCase() ?? '')) this.note(t, '', '2');
      return;
    }
    if (MAGIC_WORDS.invoke.has(name)) {
      const rule = t.module === undefined ? undefined : moduleRule(t.module);
      if (rule !== undefined) this.textRule(t, rule, depth);
      else if (this.searchesHidden) this.citationsIn(t.getAllArgs(), depth);
      return;
    }
    if (MAGIC_WORDS.pageName.has(name)) {
      if (this.scope.title !== undefined) this.append(escapeSentinels(this.scope.title));
      return;
    }
    if (!MAGIC_WORDS.shown.has(name)) return;
    const first = t.getAllArgs()[0];
    if (first === undefined) return;
    this.append(cased(this.renderApart(first.lastChild.childNodes, depth + 1), MAGIC_WORDS.shown.get(name)));
  }

  /** Renders `nodes` into a text of their own (TextRope#apart) and returns it, for the caller to append. */
  private renderApart(nodes: readonly Piece[], depth: number): string {
    return this.apart(() => this.nodes(nodes, depth));
  }

  /** TextRope#apart, the `shows` flag kept as well (replaceText clears it for the text apart). */
  override apart(write: () => void): string {
    const { shows } = this;
    const inner = super.apart(write);
    this.shows = shows;
    return inner;
  }

  override append(piece: string): void {
    super.append(piece);
    if (!this.shows && NOT_SPACE.test(piece)) this.shows = true;
  }

  /** TextRope#apart starts the text apart with it (''): that text shows nothing yet. */
  override replaceText(text: string): void {
    super.replaceText(text);
    this.shows = NOT_SPACE.test(text);
  }

  private template(t: TranscludeToken, depth: number): void {
    // A citation template in a reference is its citation text, whatever else grammar says of the
    // name: a citation on this wiki is read as one first ({{Citation}} is CS2's on enwiki, a
    // quotation with a text rule on frwiki, where it is no citation).
    if (this.options.inReference === true && this.isCitation(t)) {
      this.citation(t);
      return;
    }
    if (isCoordTemplate(t.name)) {
      // Readable coordinates, as the HTML path keeps them (coord.ts); malformed ones show nothing.
      const coords = coordText(t);
      // Nothing at all when they show nothing here, so brackets around them go too.
      if (coords !== undefined && coords.length > 0) this.append(` ${escapeSentinels(coords)} `);
      return;
    }
    const kind = templateKind(t.name);
    switch (kind.kind) {
      case 'text':
        // A bibliography entry written with a citation template that also has a text rule.
        if (this.isCitation(t)) this.citation(t);
        else this.textRule(t, kind.rule, depth);
        return;
      case 'unknown':
      case 'noise':
        // A citation template outside <ref> is a bibliography entry: its text is content.
        if (kind.kind === 'unknown' && this.isCitation(t)) {
          this.citation(t);
          return;
        }
        // A template nobody wrote a rule for keeps what it was given to show (fallback below).
        if (kind.kind === 'unknown' && this.fallback(t, depth)) return;
        // A footnote that is one such template ({{Metadaten Einwohnerzahl DE-BE|Berlin|Quelle}}, a
        // lookup of its source) is named by it: the one thing of it the door can read.
        if (kind.kind === 'noise' && this.options.inReference === true && isFootnoteContent(t)) {
          this.append(` ${escapeSentinels(templateDisplayName(t.name))} `);
          return;
        }
        // Not text, but a footnote inside (e.g. in an image caption of {{multiple image}}) is
        // still shown, so it is a footnote of the article.
        if (this.searchesHidden) this.citationsIn(t.getAllArgs(), depth);
        return;
      case 'pronunciation':
        this.abstractDiffers = true;
        if (this.options.abstract === true) this.append(CUT);
        else this.textRule(t, kind.rule, depth);
        return;
      case 'short-footnote':
        // Only a call naming someone can be a footnote (ReferenceBook.citeShort).
        if (this.finds && hasAnonValue(t)) this.citations.push(this.use({ kind: 'short', token: t, citation: blankCitation() }));
        return;
      case 'footnote-by-name':
        if (this.finds) this.footnotesByName(t);
        return;
      case 'note':
        if (this.finds) this.note(t, kind.group, '1');
        return;
      case 'description':
      case 'infobox':
        // Never text: the caller that keeps this rendering reads the template (walker.ts commit).
        if (this.finds) this.found.push({ kind: kind.kind, token: t });
        return;
      default:
        return;
    }
  }

  /**
   * A template without a renderer, in running text, a value or a reference: its positional
   * parameters' text, one after another ({{Zz ticker|IBM}} → "IBM", {{Zz|a|b}} → "a b"); in a
   * reference with none, its named values ({{Постанова ВРУ|назва=…|дата=…}}). A template alone
   * on a line of the page is a block (a navbox, a maintenance tag, a portal bar): nothing.
   * Whether anything was shown.
   */
  private fallback(t: TranscludeToken, depth: number): boolean {
    const args = fallbackArgs(t, this.options.inReference === true, this.scope.title);
    if (args === undefined) return false;
    const shown: string[] = [];
    for (const arg of args) {
      const text = this.renderApart(arg.lastChild.childNodes, depth + 1);
      if (text.trim().length > 0) shown.push(text);
    }
    if (shown.length === 0) return false;
    if (this.searchesHidden) this.citationsIn(t.getAllArgs().filter((a) => !args.includes(a)), depth);
    this.append(` ${shown.join(this.options.inReference === true && !args[0]!.anon ? ', ' : ' ')} `);
    return true;
  }

  /**
   * A citation template of this wiki (language) whose text is its citation. One that also has a
   * text rule and names another citation by authors and year reads by its rule instead
   * ({{harvnb|Glick|1987}} → "Glick 1987").
   */
  private isCitation(t: TranscludeToken): boolean {
    if (citationType(t.name, this.scope.language) === undefined) return false;
    return templateKind(t.name).kind !== 'text' || !isAnchorLink(t.name);
  }

  /** A citation template as its citation text ("Last, First (2001). Title. Work."), set apart by spaces. */
  private citation(t: TranscludeToken): void {
    let text = citationText(templateParams(this.scope, t), t.name);
    // "{{Lien web|…}}." — the author's punctuation after the template ends the citation instead.
    const next = t.nextSibling;
    if (text.endsWith('.') && next !== undefined && next.type === 'text' && PUNCTUATION_AFTER.test(next.data)) text = text.slice(0, -1);
    this.append(` ${escapeSentinels(text)} `);
  }

  /**
   * Citations inside parameters that are not rendered as text (`{{marriage|A|1919|end=died<ref>…</ref>}}`):
   * MediaWiki shows the marker, so the reference and its citation exist.
   */
  private citationsIn(args: readonly ParameterToken[], depth: number): void {
    // A text-only reading skips this walk: if it moves the mark, that reading may differ.
    const marked = this.marked;
    // Depth first in document order, so footnotes are numbered as MediaWiki numbers them.
    const stack: AstNodes[] = [];
    for (let i = args.length - 1; i >= 0; i--) {
      const children = args[i]!.lastChild.childNodes;
      for (let j = children.length - 1; j >= 0; j--) stack.push(children[j]!);
    }
    let budget = 2000;
    while (stack.length > 0 && budget-- > 0) {
      const n = stack.pop()!;
      const type = n.type;
      if (type === 'text') continue;
      if (type === 'ext' || (type === 'template' && templateKind((n as TranscludeToken).name).kind !== 'unknown')) {
        // Read for its footnotes only: the parameter is not shown, so neither is its text.
        this.renderApart([n], depth + 1);
        continue;
      }
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
    }
    if (this.marked !== marked) this.abstractDiffers = true;
  }

  private use(use: FootnoteUse): Citation {
    this.found.push(use);
    return use.citation;
  }

  /**
   * {{r|a|b|p=5}}: a use of each named reference, as the template's own `<ref name="a"/>`; its
   * group is `group=` (enwiki's `g=` too), and page numbers print after the marker, not in it.
   */
  private footnotesByName(t: TranscludeToken): void {
    const group = (t.getValue('group') ?? t.getValue('g'))?.trim() ?? '';
    for (const arg of t.getAnonArgs()) {
      const name = arg.getValue().trim();
      if (name.length > 0) this.citations.push(this.use({ kind: 'by-name', name, group, citation: blankCitation() }));
    }
  }

  private note(t: TranscludeToken, group: string, bodyKey: string): void {
    this.citations.push(this.use({ kind: 'note', token: t, group, bodyKey, citation: blankCitation() }));
  }

  /** Applies a text rule of grammar/wikitext.json, rendering parameter values (links kept). */
  private textRule(t: TranscludeToken, rule: TextRule, depth: number): void {
    this.applyTextRule(t, rule, depth);
    // Parameters the rule does not show may still hold footnotes.
    if (this.searchesHidden) this.citationsIn(t.getAllArgs().filter((a) => !shownBy(rule, a)), depth);
  }

  /**
   * The rule's text is written apart (TextRope#apart) and appended, wrapped, only when it shows
   * something. Taking back what an empty template or an empty item wrote, by slicing the text
   * back to where it began, flattened the whole paragraph each time: quadratic in the templates
   * of a paragraph (20,000 `{{nowrap}}` between words: 1.4 s, and 18 times that for 4 times as many).
   */
  private applyTextRule(t: TranscludeToken, rule: TextRule, depth: number): void {
    const [before, after] = rule.wrap ?? ['', ''];
    const shown = this.apart(() => {
      // {{2e|régiment}}: the name, then what the parameters give after `sep`.
      if (rule.name === true) this.append(escapeSentinels(templateDisplayName(t.name)));
      this.ruleValues(t, rule, depth);
      // {{IMDb name|0000487}} without a name names the article's subject.
      if (this.text.length === 0 && rule.pageName === true && this.scope.title !== undefined) this.append(escapeSentinels(this.scope.title));
      // {{JPN}}: the country's name in the article's language (grammar `countries`).
      if (this.text.length === 0 && rule.region !== undefined) this.append(escapeSentinels(regionName(rule.region, this.scope.language)));
    });
    if (shown.length === 0) return;
    const lower = rule.lowerCaseWith !== undefined && nonEmptyArg(t, rule.lowerCaseWith) !== undefined;
    this.append(lower ? before.charAt(0).toLowerCase() + before.slice(1) : before);
    this.append(shown);
    this.append(after);
  }

  /** What a text rule's date, literal or parameters give, after the name when the rule shows it. */
  private ruleValues(t: TranscludeToken, rule: TextRule, depth: number): void {
    let first = this.text.length === 0;
    const date = rule.date === undefined ? '' : formatDate(t, rule.date, this.scope.language);
    if (date.length > 0) this.append(escapeSentinels(date));
    else if (rule.literal !== undefined) this.append(rule.literal);
    else if (rule.param !== undefined || rule.join !== undefined) {
      // param: the first non-empty parameter; join: every non-empty one.
      const keys = rule.param ?? rule.join!;
      for (const key of keys) {
        const arg = nonEmptyArg(t, key);
        if (arg === undefined) continue;
        if (!first) this.append(rule.sep ?? ' ');
        first = false;
        this.value(arg, key, rule, depth);
        if (rule.param !== undefined) break;
      }
    } else if (rule.all !== undefined) {
      for (const arg of t.getAnonArgs()) {
        if (arg.getValue().trim().length === 0) continue;
        const item = this.apart(() => this.nodes(arg.lastChild.childNodes, depth + 1));
        // An item that shows nothing (only a footnote: {{ubl|<ref>…</ref>|…}}) takes no separator.
        if (!NOT_SPACE.test(item)) continue;
        if (!first) this.append(rule.all);
        this.append(item);
        first = false;
      }
    }
  }

  /** One parameter's value for a text rule: a unit code as it reads (`units`), its `suffixes` text after it. */
  private value(arg: ParameterToken, key: string, rule: TextRule, depth: number): void {
    if (rule.units?.includes(key) === true) this.append(escapeSentinels(unitDisplay(arg.getValue())));
    else this.nodes(arg.lastChild.childNodes, depth + 1);
    const suffix = rule.suffixes?.[key];
    if (suffix !== undefined) this.append(suffix);
  }
}

/**
 * The parameters a template without a renderer shows (Renderer.fallback), or undefined when it
 * shows none: a template standing alone on a line of the page shows nothing; otherwise its
 * positional parameters that hold one line of text, a language or script code among others
 * ({{transl|ar|…}}, {{lang|de|…}}) and record ids left out; in a reference without positional text, its named
 * parameters but addresses and switches.
 */
function fallbackArgs(t: TranscludeToken, inReference: boolean, title: string | undefined): ParameterToken[] | undefined {
  if (!inReference && standsAlone(t)) return undefined;
  // In a reference, only a template that is the footnote's own content: one inside a citation's
  // parameter builds its URL or id ({{Google books|Dd-vAAAAQBAJ|pg=PR10}} in `url=`).
  if (inReference && t.parentNode?.type !== 'ext-inner') return undefined;
  // Each value read once: getValue writes it out of the parameter's tree at every call.
  const anon: ParameterToken[] = [];
  const values: string[] = [];
  for (const a of t.getAnonArgs()) {
    const value = a.getValue();
    if (!isShownValue(value)) continue;
    anon.push(a);
    values.push(value);
  }
  if (isLookup(values, title)) return undefined;
  const text = anon.filter((_, i) => !isIdentifier(values[i]!) && (anon.length === 1 || !isLanguageCode(values[i]!.trim().toLowerCase())));
  if (text.length > 0) return text;
  if (!inReference) return undefined;
  const named = t.getAllArgs().filter((a) => {
    if (a.anon) return false;
    const value = a.getValue();
    return isShownValue(value) && !/^(?:https?:)?\/\//i.test(value.trim()) && isPhrase(value) && !isIdentifier(value);
  });
  return named.length > 0 ? named : undefined;
}

/**
 * A data lookup keyed by the page itself: among its positional values, the page's own name and
 * a number or code ({{Statistiek gemeente Duitsland inwoners|11|Berlijn}} on "Berlijn",
 * {{Métadonnées Commune|2B050|calvi|Calvi}} on "Calvi"). What it shows is looked up from them
 * (a population, an area), so none of them is text.
 */
function isLookup(positional: readonly string[], title: string | undefined): boolean {
  if (title === undefined || positional.length < 2) return false;
  const page = title.replace(/_/g, ' ').replace(/\s*\([^()]*\)$/, '').trim().toLowerCase();
  const values = positional.map((v) => v.trim());
  return values.some((v) => v.toLowerCase() === page) && values.some((v) => LOOKUP_KEY.test(v));
}
const LOOKUP_KEY = /^[\p{Lu}\d][\p{Lu}\d-]*$/u;

/** Not a switch or a code ("yes", "de", "left", "ISBN"): a value with a space, of six characters or more, or of four not all Latin letters ("1991"). */
function isPhrase(raw: string): boolean {
  const v = raw.trim();
  return /\s/.test(v) || v.length >= 6 || (v.length >= 4 && !/^[A-Za-z]+$/.test(v));
}

/**
 * Not text but data a template turns into a link, a colour or a picture: a record id ({{Google
 * books|OAsQ_hFjhrAC}}, {{IMDb name|0000123}}, {{Gallica|bpt6k76498757/f2}}: one word of eight or more with a digit or `_`),
 * a CSS colour ({{legend|#204A87|Union states}}), a file name or an image size.
 */
function isIdentifier(raw: string): boolean {
  const v = raw.trim();
  return (/^[\w/-]{8,}$/.test(v) && /[\d_]/.test(v)) || /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(v) || FILE_OR_SIZE.test(v) || FORMAT_KEY.test(v);
}
/**
 * A file a template places or its size ({{Kaart deelstaten Duitsland|Locator map Berlin in Germany.svg|190px}}), or a
 * format key of lower-case letters and one digit ({{Datum|…|iso2}}, {{Kartposition Tyskland|bild1}}): never text.
 */
const FILE_OR_SIZE = /^(?:[^|\n[\]{}]{1,240}\.(?:jpe?g|png|svg|gif|tiff?|webp|ogg|oga|mp3|wav|webm)|\d*x?\d+\s*px)$/i;
const FORMAT_KEY = /^[a-z]+\d$/;

/** A value a fallback shows: some text, on one line. */
function isShownValue(raw: string): boolean {
  const v = raw.trim();
  return v.length > 0 && !v.includes('\n');
}

/** The whole content of a footnote, nothing but whitespace beside it (`<ref>{{…}}</ref>`). */
function isFootnoteContent(t: TranscludeToken): boolean {
  return t.parentNode?.type === 'ext-inner' && t.parentNode.childNodes.every((c) => c === t || (c.type === 'text' && c.data.trim().length === 0));
}

/** A template at the page's top level with nothing but whitespace beside it on its line. */
function standsAlone(t: TranscludeToken): boolean {
  if (t.parentNode?.type !== 'root') return false;
  const prev = t.previousSibling;
  const next = t.nextSibling;
  const before = prev === undefined || prev.type !== 'text' || /(?:^|\n)[^\S\n]*$/.test(prev.data);
  const after = next === undefined || next.type !== 'text' || /^[^\S\n]*(?:\n|$)/.test(next.data);
  return before && after;
}

/** {{lc:…}}, {{ucfirst:…}}: the shown text in the case its function gives it (grammar `magicWords.shown`). */
function cased(text: string, casing: Casing): string {
  switch (casing) {
    case 'lower':
      return text.toLowerCase();
    case 'upper':
      return text.toUpperCase();
    case 'lowerFirst':
      return text.charAt(0).toLowerCase() + text.slice(1);
    case 'upperFirst':
      return text.charAt(0).toUpperCase() + text.slice(1);
    default:
      return text;
  }
}

/** Whether a text rule may render this parameter (so its footnotes are already read). */
function shownBy(rule: TextRule, arg: ParameterToken): boolean {
  if (rule.all !== undefined) return arg.anon;
  const name = arg.name.trim();
  return (rule.param ?? rule.join ?? []).includes(name);
}

/** Whether a template has a positional parameter with a value. */
function hasAnonValue(t: TranscludeToken): boolean {
  for (const a of t.getAnonArgs()) if (a.getValue().trim().length > 0) return true;
  return false;
}

function nonEmptyArg(t: TranscludeToken, key: string): ParameterToken | undefined {
  const arg = t.getArg(key);
  if (arg === undefined || arg.getValue().trim().length === 0) return undefined;
  return arg;
}

const paramsCache = new WeakMap<TranscludeToken, Record<string, string>>();

/** Parameters of a template as clean text (links dropped), empty ones left out. */
export function templateParams(scope: Scope, t: TranscludeToken): Record<string, string> {
  // A citation template is read twice: for the reference's metadata and for its text.
  const cached = paramsCache.get(t);
  if (cached !== undefined) return cached;
  // A plain object, not one without prototype: V8 keeps those as dictionaries, slow to read, to
  // walk with for…in (citation-metadata.ts) and to copy (the reference's `template.parameters`).
  // So a parameter named "constructor" or "toString" is one like any other, presence is asked of
  // the object's own keys, and "__proto__" is defined rather than assigned (which would set the
  // prototype).
  const params: Record<string, string> = {};
  paramsCache.set(t, params);
  for (const arg of t.getAllArgs()) {
    const key = arg.name.trim();
    if (key.length === 0 || Object.hasOwn(params, key)) continue;
    const value = renderedValue(scope, arg.lastChild.childNodes, IN_REFERENCE);
    if (value.length === 0) continue;
    if (key === '__proto__') Object.defineProperty(params, key, { value, enumerable: true, writable: true, configurable: true });
    else params[key] = value;
  }
  return params;
}
const IN_REFERENCE: RenderOptions = { inReference: true };

/** Clean text of one template argument, links dropped. */
export function argText(scope: Scope, t: TranscludeToken, key: string, options: RenderOptions = {}): string {
  const arg = t.getArg(key);
  if (arg === undefined) return '';
  return renderedValue(scope, arg.lastChild.childNodes, options);
}

/** `render(…).value`; a value of one text node (most parameters) without a renderer of its own. */
function renderedValue(scope: Scope, nodes: readonly AstNodes[], options: RenderOptions): string {
  const only = nodes.length === 1 ? nodes[0]! : undefined;
  if (only !== undefined && only.type === 'text') {
    const data = only.data;
    return TEXT_MAY_CHANGE.test(data) ? finish(escapeSentinels(decodeEntities(data))) : data;
  }
  return render(scope, nodes, options).value;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Building a DateTimeFormat costs far more than using one: one per locale and shape. */
function dateFormat(locale: string, withDay: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withDay}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', ...(withDay ? { day: 'numeric' } : {}), timeZone: 'UTC' });
    if (dateFormats.size < 100) dateFormats.set(key, format);
  }
  return format;
}

/**
 * {{birth date|1879|3|14}} → "14 March 1879" in the article's language; partial dates shortened;
 * a month written as a word ({{date|17|juin|1994}}) is kept as written. '' when not a date.
 */
function formatDate(t: TranscludeToken, keys: readonly [string, string, string], language: string | undefined): string {
  const [yRaw, mRaw, dRaw] = keys.map((k) => t.getValue(k)?.trim() ?? '') as [string, string, string];
  if (!/^\d{1,4}$/.test(yRaw)) return '';
  const y = Number(yRaw);
  const d = /^\d{1,2}$/.test(dRaw) && Number(dRaw) >= 1 && Number(dRaw) <= 31 ? Number(dRaw) : undefined;
  if (mRaw.length > 0 && !/^\d+$/.test(mRaw)) return /[{}[\]<>|]/.test(mRaw) ? '' : `${d === undefined ? '' : `${d} `}${mRaw} ${y}`;
  const m = Number(mRaw);
  if (mRaw.length === 0 || m < 1 || m > 12) return String(y);
  const date = new Date(Date.UTC(2000, m - 1, d ?? 1));
  date.setUTCFullYear(y);
  const locale = language === undefined || language === 'en' || language === 'simple' ? 'en-GB' : language;
  try {
    return dateFormat(locale, d !== undefined).format(date);
  } catch {
    return `${y}-${String(m).padStart(2, '0')}${d === undefined ? '' : `-${String(d).padStart(2, '0')}`}`;
  }
}

const regionNames = new Map<string, Intl.DisplayNames | undefined>();

/** A region's name in a language ("JP" in ja → "日本"); '' when the language has no names. */
function regionName(region: string, language: string | undefined): string {
  const locale = language === undefined || language === 'simple' ? 'en' : language;
  return memoized(regionNames, 1000, locale, regionNamesIn)?.of(region) ?? '';
}

/** The region names of a locale; undefined for a language tag Intl refuses. */
function regionNamesIn(locale: string): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  } catch {
    return undefined;
  }
}

/**
 * A token's wikitext, `String(t)`: a link's target is nearly always one text node, read as it is
 * rather than through the token's own `toString`, which joins its children.
 */
function sourceOf(t: AstNodes): string {
  const only = t.childNodes.length === 1 ? t.firstChild! : undefined;
  return t.type !== 'text' && only !== undefined && only.type === 'text' ? only.data : String(t);
}

/** The parser's own plain text of a token, or nothing when even that fails (pathological trees). */
function safeText(t: AstNodes): string {
  try {
    return t.text();
  } catch {
    return '';
  }
}

export function render(scope: Scope, nodes: readonly Piece[], options: RenderOptions = {}, depth = 0): Rendered {
  const r = new Renderer(scope, options);
  r.nodes(nodes, depth);
  return { value: finish(r.text), links: r.links, citations: r.citations, files: r.files, found: r.found, abstractDiffers: r.abstractDiffers };
}

/** Marks a template that showed nothing right inside an opening bracket (see Renderer.template). */
const EMPTY = '\uE010';
const EMPTY_BRACKETS = /\s*\((?:[\s,;]|\uE010)*\uE010(?:[\s,;]|\uE010)*\)/g;
/** A bracket whose first item showed nothing ("({{birth date from Wikidata}}, buried in …)"): its separator goes too. */
const EMPTY_FIRST_ITEM = /\(\s*(?:\uE010[\s,;]*)+(?=[^\s,;)\uE010])/g;
/** …and one whose last item did ("(born, {{death date from Wikidata}})"). */
const EMPTY_LAST_ITEM = /\s*[,;]\s*(?:\uE010\s*)+\)/g;

/**
 * Literal text (nowiki, TeX) is carried through the scrubbing of leftover markup in private-use
 * characters, one per character the scrubber would read as markup, and restored at the end.
 * The text itself may hold private-use characters too (they are the author's): every one of the
 * range the renderer uses as sentinels (U+E000–U+E011) is escaped where text enters the renderer,
 * as ESCAPE and two digits (its offset in the range), which neither clean() nor stripMarkup()
 * changes, and restored by finish(). A sentinel in the renderer's text is thus always one it wrote.
 */
const LITERAL_CHARS = /[[\]{}'<>]/g;
const LITERAL_CODES: Record<string, string> = { '[': '\uE000', ']': '\uE001', '{': '\uE002', '}': '\uE003', "'": '\uE004', '<': '\uE005', '>': '\uE006' };
const LITERAL_DECODE = new Map(Object.entries(LITERAL_CODES).map(([k, v]) => [v, k]));
const SENTINEL_FIRST = 0xe000;
const ESCAPE = '\uE011';
/** Any character of the sentinel range, ESCAPE included. */
const SENTINEL = /[\uE000-\uE011]/;
const SENTINELS = /[\uE000-\uE011]/g;
/** What finish() restores: an escaped character of the input, or a literal's markup character. */
const RESTORED = /\uE011(\d\d)|[\uE000-\uE006]/g;

/** The author's sentinel-range characters, escaped (see LITERAL_CHARS). Most text holds none: returned as is. */
function escapeSentinels(text: string): string {
  if (!SENTINEL.test(text)) return text;
  return text.replace(SENTINELS, (c) => ESCAPE + String(c.charCodeAt(0) - SENTINEL_FIRST).padStart(2, '0'));
}

function literal(text: string): string {
  return escapeSentinels(text).replace(LITERAL_CHARS, (c) => LITERAL_CODES[c]!);
}

function restore(match: string, escaped: string | undefined): string {
  return escaped === undefined ? LITERAL_DECODE.get(match)! : String.fromCharCode(SENTINEL_FIRST + Number(escaped));
}

/** The renderer's text as a value: cleaned, leftover markup scrubbed, literal text restored. */
function finish(text: string): string {
  // Most values need none of it: one scan says so, where each step below scans on its own.
  if (!FINISH_MAY_CHANGE.test(text)) return text;
  let value = clean(text);
  if (value.includes(EMPTY)) value = clean(value.replace(EMPTY_BRACKETS, '').replace(EMPTY_FIRST_ITEM, '(').replace(EMPTY_LAST_ITEM, ')').replaceAll(EMPTY, ''));
  value = stripMarkup(value);
  return SENTINEL.test(value) ? value.replace(RESTORED, restore) : value;
}

/**
 * Whether an empty template is an item of a bracket that its emptiness leaves dangling: right
 * inside "(", after another such template (and the separator between them), or the last item
 * before ")" after a separator ("(born, {{death date from Wikidata}})").
 */
function inBrackets(t: AstNodes, marked: AstNodes | undefined): boolean {
  const prev = t.previousSibling;
  if (prev === undefined) return false;
  if (prev === marked) return true;
  if (prev.type !== 'text') return false;
  const before = prev.data.trimEnd();
  if (before.endsWith('(')) return true;
  if (marked !== undefined && prev.previousSibling === marked && SEPARATORS_ONLY.test(prev.data)) return true;
  const next = t.nextSibling;
  return (before.endsWith(',') || before.endsWith(';')) && next !== undefined && next.type === 'text' && next.data.trimStart().startsWith(')');
}
const SEPARATORS_ONLY = /^[\s,;]*$/;
const PUNCTUATION_AFTER = /^\s*[.,;:]/;

/**
 * The TeX of a <math> tag, trimmed, without the `{\displaystyle …}` wrapper some editors copy in
 * from rendered pages: math.ts's unwrapTex, the HTML door's reading of the same TeX in `alttext`.
 */
export function texOf(t: ExtToken): string {
  return unwrapTex(safeText(t.lastChild));
}

const LEFTOVER = /\[\[|\]\]|\{\{|\}\}|<ref|'''/i;

/**
 * What finish() may change, over-approximated, in one pattern: what `clean` may change (../text.ts
 * MAY_CHANGE), the sentinels (the empty-template mark, literal text, escaped input) and leftover
 * markup (LEFTOVER, `<ref` in any case). Text without any of them is its own value.
 */
const FINISH_CHANGES = String.raw`${CLEAN_MAY_CHANGE.source}|[\uE000-\uE011]|\[\[|\]\]|\{\{|\}\}|<[rR][eE][fF]|'''`;
const FINISH_MAY_CHANGE = new RegExp(FINISH_CHANGES);
/** …and, for a text as written, a character reference too (decodeEntities). */
const TEXT_MAY_CHANGE = new RegExp(`${FINISH_CHANGES}|&`);
const LEFTOVERS = /\[\[|\]\]|\{\{|\}\}|<\/?ref[^>]*>?|'{2,}/gi;

/**
 * Markup the parser left as text because it is unbalanced ("[[foo", a lone "{{", stray quotes) is
 * not content; MediaWiki would show it verbatim, but a value never carries wiki syntax.
 */
export function stripMarkup(value: string): string {
  if (!LEFTOVER.test(value)) return value;
  let out = value;
  for (let i = 0; i < 10 && LEFTOVER.test(out); i++) out = out.replace(LEFTOVERS, ' ');
  return clean(out.replace(/[[\]{}]{2,}/g, ' '));
}
