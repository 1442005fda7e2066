/**
 * Markup knowledge (class names, Parsoid typeof/rel/property tokens, template, parameter and
 * extension names, URL forms of the wikis, mw.config keys, COinS keys) lives in `grammar/*.json`,
 * each rule with its `why`, never as a literal in the engine's code. This suite reads the source
 * of every module under src/engine (the grammar loader and its schemas excepted: they are where
 * the data comes in) and fails, per file, on each string, template or regex literal that states
 * such knowledge. A literal that has a reason to stay is on the allow-list below, with the reason.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../support/files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = join(ROOT, 'src/engine');
/** The loader and the schemas of grammar/ are the way in for the data; they are not checked. */
const EXEMPT_DIR = join(ENGINE, 'grammar');

// ---------------------------------------------------------------------------------------------
// Reading the literals of a TypeScript source. A small scanner rather than the compiler: the
// project's TypeScript (7, the native port) has no stable JS API, and a literal is all we need.
// Comments are skipped (they should name the markup they explain); `/` starts a regex where an
// expression may begin, which is how JavaScript itself decides.

export interface Literal {
  line: number;
  /** The literal's text as written (escapes kept), without its quotes or slashes. */
  text: string;
  kind: 'string' | 'template' | 'regex';
  /** An import or export specifier: a module path, never markup. */
  module: boolean;
  /**
   * The name argument of dom.ts's `attr(el, name)`: the name of an HTML attribute (`lang`,
   * `typeof`, `data-mw`, fields of the DOM spec), never a class or template of the markup.
   */
  attribute: boolean;
}

const EXPRESSION_START = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '']);
const KEYWORD_BEFORE = /(?:^|[^\w$])(?:return|typeof|case|of|in|void|throw|delete|new|else|do|yield|await)$/;

export function scanLiterals(source: string): { literals: Literal[]; code: string; balanced: boolean } {
  const literals: Literal[] = [];
  const code = source.split('');
  const n = source.length;
  let line = 1;
  let i = 0;
  let prev = ''; // last significant character of code
  let recent = ''; // code since the last literal, to see a keyword or `from` before it
  const templateDepths: number[] = []; // brace depth at each open `${`
  let depth = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  const take = (from: number, to: number, at: number, kind: Literal['kind']): void => {
    const module = kind === 'string' && /(?:\bfrom|\bimport\s*\(?)\s*$/.test(recent);
    const attribute = kind === 'string' && /\battr\([^()]*,\s*$/.test(recent);
    literals.push({ line: at, text: source.slice(from, to), kind, module, attribute });
  };
  /** From just after "`" or after the `}` closing a `${`: up to the next "`" or `${`. */
  const templateChunk = (): void => {
    const at = line;
    const from = i;
    while (i < n) {
      const c = source[i]!;
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '\n') line++;
      if (c === '`') {
        take(from, i, at, 'template');
        i++;
        prev = 'x';
        return;
      }
      if (c === '$' && source[i + 1] === '{') {
        take(from, i, at, 'template');
        i += 2;
        templateDepths.push(depth++);
        prev = '{';
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      recent += c;
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const to = end < 0 ? n : end;
      blank(i, to);
      i = to;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const to = end < 0 ? n : end + 2;
      for (let k = i; k < to; k++) if (source[k] === '\n') line++;
      blank(i, to);
      i = to;
      continue;
    }
    if (c === "'" || c === '"') {
      const at = line;
      const from = ++i;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      take(from, i, at, 'string');
      i++;
      prev = 'x';
      recent = '';
      continue;
    }
    if (c === '`') {
      i++;
      templateChunk();
      recent = '';
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') {
      depth--;
      if (templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === depth) {
        templateDepths.pop();
        i++;
        templateChunk();
        recent = '';
        continue;
      }
    }
    if (c === '/' && (EXPRESSION_START.has(prev) || KEYWORD_BEFORE.test(recent.trimEnd()))) {
      const at = line;
      const from = ++i;
      let inClass = false;
      while (i < n && source[i] !== '\n') {
        const r = source[i]!;
        if (r === '\\') {
          i += 2;
          continue;
        }
        if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      take(from, i, at, 'regex');
      i++;
      while (i < n && /[a-z]/.test(source[i]!)) i++;
      prev = 'x';
      recent = '';
      continue;
    }
    prev = /[\w$)\].]/.test(c) ? 'x' : c;
    recent += c;
    if (recent.length > 64) recent = recent.slice(-64);
    i++;
  }
  // Every brace closed and no template left open: the scanner followed the source to its end.
  return { literals, code: code.join(''), balanced: depth === 0 && templateDepths.length === 0 };
}

// ---------------------------------------------------------------------------------------------
// What counts as markup knowledge.

interface Pattern {
  name: string;
  test: RegExp;
  why: string;
}

/** Run on each literal's text. */
const LITERAL_PATTERNS: readonly Pattern[] = [
  {
    name: 'MediaWiki token',
    // `mw-parser-output`, `mwe-math-element`, `mw:File`, `mw:pageId`; not the attribute name
    // `data-mw`, which is the DOM spec's field like `typeof` (its token is preceded by "-").
    test: /(?:^|[\s.#,>(|^\\b])mwe?[-:][A-Za-z]/,
    why: 'Parsoid typeof/rel/property tokens and MediaWiki class names belong in grammar/',
  },
  { name: 'article path', test: /\/wiki\/|\\\/wiki\\\//, why: 'the /wiki/ URL form is a setting of the wiki ($wgArticlePath)' },
  {
    name: 'wiki host',
    test: /\b(?:wikipedia|wikimedia|wikidata|wiktionary|wikisource|wikiquote|wikibooks|wikinews|wikivoyage|wikiversity|mediawiki)\\?\.org\b/,
    why: 'host names of the wiki families are in grammar/projects.json',
  },
  {
    name: 'namespace name',
    test: /\b(?:Special|File|Image|Category|Template|Help|Portal|Module|Wikipedia|Talk|User|Draft|MediaWiki):/,
    why: 'namespace names (and their translations) are grammar data',
  },
  { name: 'mw.config key', test: /\bwg[A-Z][A-Za-z]+|\bRL(?:CONF|STATE|PAGEMODULES)\b/, why: 'the keys skin pages carry in their RLCONF script' },
  { name: 'COinS key', test: /Z3988|\brft(?:_[a-z]+|\\?\.[a-z]+)|info:doi/, why: 'OpenURL/COinS keys of citation spans' },
  { name: 'head vocabulary', test: /^(?:dc|schema|og|foaf):[A-Za-z]|^(?:application\/ld\+json|canonical|content-language)$/, why: 'head property and link names (Specs/HTML §Headers)' },
  { name: 'Cite anchor', test: /CITEREF|cite_note|cite_ref|FOOTNOTE/, why: "the Cite extension's and CS1's anchor prefixes" },
  { name: 'magic word', test: /__[A-Z]{3,}__|#(?:invoke|tag|if|ifeq|switch|expr|time|property|statements)\b/, why: 'magic words and parser functions are wikitext grammar' },
  {
    name: 'class, template or extension name',
    test: /^(?:reference-text|reflist|refbegin|refend|citation|navbox|vertical-navbox|sidebar|hatnote|ambox|noprint|shortdescription|nowrap|plainlist|hlist|thumb|thumbinner|thumbcaption|thumbimage|gallery|gallerybox|gallerytext|mbox-small|sortkey|sfn|sfnp|sfnm|efn|harvnb|harv|harvtxt|refn|coord|lang|ipa|convert|nowiki|noinclude|includeonly|onlyinclude|syntaxhighlight|poem|imagemap|chem|ce|templatestyles|indicator|timeline|score|mapframe|maplink|inputbox|categorytree|formatnum|lc|uc|lcfirst|ucfirst|pagename|fullpagename|basepagename|subjectpagename|articlepagename|displaytitle|defaultsort)$/i,
    why: 'a word that names a class, template, extension or magic word of the markup',
  },
  {
    name: 'citation parameter',
    test: /^(?:titre|consulté le|lire en ligne|auteur\d*|prénom\d*|nom\d*|éditeur|título|fechaacceso|urlacceso|apellidos?\d*|nombre\d*|editorial|obra|titolo|accesso|autore\d*|cognome\d*|editore|sito|titel|zugriff|autor\d*|verlag|access-date|accessdate|archive-url|archiveurl|archive-date|url-status|author-link|editor-last|editor-first|editor-link|website|newspaper|periodical|encyclopedia|journal|magazine)$/i,
    why: "citation template parameter names are grammar/citations.json's vocabulary and aliases",
  },
];

/** Run on the code with comments blanked: a literal used as a class, typeof, rel or property. */
const CODE_PATTERNS: readonly Pattern[] = [
  { name: 'class or token argument', test: /\b(?:hasClass|hasToken|hasClassIn|someToken)\([^()]*?,\s*['"`]/, why: 'a class or typeof token tested in code instead of a grammar table' },
  {
    name: 'attribute compared with a literal',
    test: /\.(?:class|typeof|rel|property|role|itemprop|about)\s*[!=]==?\s*['"`]|\[['"](?:class|typeof|rel|property|role|http-equiv)['"]\]\s*[!=]==?\s*['"`]|\battr\([^()]*,\s*['"](?:class|typeof|rel|property|role|itemprop|about|http-equiv)['"]\)\s*[!=]==?\s*['"`]/,
    why: 'a class, typeof, rel or property value compared in code instead of a grammar table',
  },
];

// ---------------------------------------------------------------------------------------------
// Literals that stay, each with its reason. Keyed by file (relative to src/engine) and literal.

const ALLOWED: readonly { file: string; literal: string; why: string }[] = [
  // An entry names the file, the literal exactly as written, and why it must stay.
  {
    file: 'walk/gallery.ts',
    literal: 'gallery',
    why: "the rule's name in the preset (walk/preset.ts, docs/architecture.md), not a selector: the classes are grammar/media.json galleryClasses",
  },
  ...(['label', 'header', 'subheader', 'data'] as const).map((literal) => ({
    file: 'infobox/wikitext.ts',
    literal,
    why: "a value of the `role` enum of grammar/wikitext.json infobox.rows (schemas.ts), not a parameter name nor an HTML role: the parameter names are the rows' `match`",
  })),
  ...(['canonical', 'lang'] as const).map((literal) => ({
    file: 'wiki/siteinfo.ts',
    literal,
    why: "an attribute of MediaWiki's siteinfo XML (API `<ns canonical>`, `<general lang>`), the file format this module reads, like the element names beside it; not article markup",
  })),
  // The syntax passes are a port of wikiparser-node's stages (src/engine/wikitext/syntax): a tag
  // name there states a behaviour of MediaWiki's parser for that tag on every wiki, as `{{` does,
  // node for node the library's (test/wikitext/syntax/oracle.test.ts), never a wiki's template.
  ...(
    [
      ['wikitext/syntax/stages/comment-and-ext.ts', 'includeonly', 'the inclusion tags are preprocessor syntax (see nesting.ts below)'],
      ['wikitext/syntax/stages/comment-and-ext.ts', 'noinclude', 'the inclusion tags are preprocessor syntax (see nesting.ts below)'],
      ['wikitext/syntax/tokens/hidden.ts', 'noinclude', 'the library\'s token type for a tag that shows nothing'],
      ['wikitext/syntax/tokens/parameter.ts', 'noinclude', 'the library\'s token type for a tag that shows nothing, left out of a parameter\'s name'],
      ['wikitext/syntax/tokens/redirect.ts', 'noinclude', 'the library\'s token type for a tag that shows nothing'],
      ['wikitext/syntax/stages/hr-and-double-underscore.ts', 'poem', '<poem> content has no headings (the Poem extension\'s parser behaviour, as the library)'],
      ['wikitext/syntax/stages/list.ts', 'poem', '<poem> content reads lists from its first line (the library\'s rule)'],
      ['wikitext/syntax/stages/table.ts', 'poem', '<poem> content reads tables from its first line (the library\'s rule)'],
      ['wikitext/syntax/tokens/ext.ts', 'poem', 'the extension tags whose content MediaWiki parses as wikitext, and <poem>\'s exclusions (the library\'s ExtToken)'],
      ['wikitext/syntax/tokens/ext.ts', 'indicator', 'the extension tags whose content MediaWiki parses as wikitext (the library\'s ExtToken)'],
      ['wikitext/syntax/tokens/ext.ts', 'gallery', "<gallery>'s content is its lines of images (the library's GalleryToken)"],
      ['wikitext/syntax/tokens/gallery.ts', 'gallery', "the name of the content token of <gallery> (the library's GalleryToken)"],
      ['wikitext/syntax/tokens/attributes.ts', 'gallery', 'attributes the Gallery, Kartographer extensions read as wikitext (the library\'s AttributeToken)'],
      ['wikitext/syntax/tokens/attributes.ts', 'mapframe', 'attributes the Gallery, Kartographer extensions read as wikitext (the library\'s AttributeToken)'],
      ['wikitext/syntax/tokens/attributes.ts', 'maplink', 'attributes the Gallery, Kartographer extensions read as wikitext (the library\'s AttributeToken)'],
      ['wikitext/syntax/tokens/file.ts', 'lang', 'the `lang=` image option (an SVG\'s language), MediaWiki core syntax read by the library\'s ImageParameterToken'],
      ['wikitext/syntax/tokens/transclude.ts', 'Module:', "#invoke's module is a title in namespace 828, read as the library reads it: its canonical name, which every wiki's namespace ids know, before the written name (so a written prefix stays part of the title)"],
    ] as const
  ).map(([file, literal, why]) => ({ file, literal, why })),
  ...(['includeonly', 'noinclude', 'onlyinclude'] as const).map((literal) => ({
    file: 'wikitext/nesting.ts',
    literal,
    why: "MediaWiki's inclusion tags are preprocessor syntax, as `{{` and `[[` are, on every wiki; the guard counts the scans of wikiparser-node's regex for them, which hard-codes the same three names",
  })),
];

// ---------------------------------------------------------------------------------------------

interface Finding {
  line: number;
  pattern: string;
  text: string;
}

export function findMarkup(source: string, allowed: ReadonlySet<string> = new Set()): Finding[] {
  const { literals, code } = scanLiterals(source);
  const out: Finding[] = [];
  for (const lit of literals) {
    if (lit.module || lit.attribute || allowed.has(lit.text)) continue;
    for (const p of LITERAL_PATTERNS) {
      if (p.test.test(lit.text)) {
        out.push({ line: lit.line, pattern: p.name, text: lit.text });
        break;
      }
    }
  }
  const lines = code.split('\n');
  lines.forEach((text, index) => {
    for (const p of CODE_PATTERNS) {
      const m = p.test.exec(text);
      if (m === null) continue;
      // The literal the pattern stopped at, for the allow-list and the report.
      const rest = source.split('\n')[index]!.slice(m.index + m[0].length - 1);
      const lit = /^(['"`])((?:\\.|(?!\1).)*)\1/.exec(rest)?.[2] ?? rest.slice(0, 40);
      if (!allowed.has(lit)) out.push({ line: index + 1, pattern: p.name, text: lit });
    }
  });
  return out.sort((a, b) => a.line - b.line);
}

const files = filesBelow(ENGINE)
  .filter((path) => path.endsWith('.ts') && !path.startsWith(EXEMPT_DIR + sep))
  .sort()
  .map((f) => relative(ENGINE, f));

describe('the literal scanner', () => {
  it('finds strings, template chunks and regexes, and skips comments and module paths', () => {
    const src = [
      "import { x } from './dom.js';",
      "// hasClass(el, 'in-a-comment')",
      "/* 'also a comment' */ const a = 'one', b = \"two\";",
      'const t = `head ${a + `inner`} tail`;',
      'const r = /\\/wiki\\/[^/]+/g, q = a / 2 / 3;',
      "if (x) return /^re$/.test('s');",
    ].join('\n');
    const { literals, code } = scanLiterals(src);
    expect(literals.map((l) => [l.kind, l.text, l.line, l.module])).toEqual([
      ['string', './dom.js', 1, true],
      ['string', 'one', 3, false],
      ['string', 'two', 3, false],
      ['template', 'head ', 4, false],
      ['template', 'inner', 4, false],
      ['template', ' tail', 4, false],
      ['regex', '\\/wiki\\/[^/]+', 5, false],
      ['regex', '^re$', 6, false],
      ['string', 's', 6, false],
    ]);
    expect(code).not.toContain('in-a-comment');
    expect(code.split('\n')).toHaveLength(6);
  });
});

describe('the forbidden patterns', () => {
  const flagged = (src: string): string[] => findMarkup(src).map((f) => `${f.pattern}: ${f.text}`);

  it.each([
    ["const root = 'mw-parser-output';", 'MediaWiki token: mw-parser-output'],
    ["if (t.includes('mw:File')) {}", 'MediaWiki token: mw:File'],
    ["const s = '.mw-heading > h2';", 'MediaWiki token: .mw-heading > h2'],
    ["const math = 'mwe-math-element';", 'MediaWiki token: mwe-math-element'],
    ['const m = /\\/wiki\\/([^?#]+)/;', 'article path: \\/wiki\\/([^?#]+)'],
    ['const base = `${origin}/wiki/`;', 'article path: /wiki/'],
    ["const h = 'https://www.wikidata.org/entity/';", 'wiki host: https://www.wikidata.org/entity/'],
    ["const f = '/wiki/Special:FilePath/';", 'article path: /wiki/Special:FilePath/'],
    ["const f = 'Special:FilePath';", 'namespace name: Special:FilePath'],
    ["num('wgArticleId');", 'mw.config key: wgArticleId'],
    ["if (key === 'rft.genre') {}", 'COinS key: rft.genre'],
    ["findFirst(li, (e) => e.attribs.title === 'x' || isCoins('Z3988'));", 'COinS key: Z3988'],
    ["if (a.property === 'dc:modified') {}", 'head vocabulary: dc:modified'],
    ["if (id.startsWith('CITEREF')) {}", 'Cite anchor: CITEREF'],
    ["if (name === '#invoke') {}", 'magic word: #invoke'],
    ["const TAGS = new Set(['nowiki', 'div']);", 'class, template or extension name: nowiki'],
    ["if (name === 'sfn') {}", 'class, template or extension name: sfn'],
    ["const t = p['fechaacceso'];", 'citation parameter: fechaacceso'],
    ["if (hasClass(table, 'wikitable')) {}", 'class or token argument: wikitable'],
    ["if (el.attribs.typeof === 'mw:Entity') {}", 'MediaWiki token: mw:Entity'],
    ["if (el.attribs.rel === 'nofollow') {}", 'attribute compared with a literal: nofollow'],
    ["if (attr(el, 'rel') === 'nofollow') {}", 'attribute compared with a literal: nofollow'],
    ["if (attr(el, 'lang') === 'lang') {}", 'class, template or extension name: lang'],
  ])('flag %s', (src, expected) => {
    expect(flagged(src)).toContain(expected);
  });

  it('skip a literal on the allow-list, and only that one', () => {
    const src = "const a = 'mw-parser-output', b = 'mw-heading';";
    expect(findMarkup(src, new Set(['mw-parser-output'])).map((f) => f.text)).toEqual(['mw-heading']);
  });

  it.each([
    "import { x } from '../grammar/wikitext.js';",
    "const part: Part = { type: 'infobox' };",
    "if (el.name === 'table' || el.attribs['data-mw'] !== undefined) {}",
    "const group = ol.attribs['data-mw-group'];",
    "const language = attr(el, 'lang') ?? attr(parent, 'xml:lang');",
    "// skin pages write 'mw-parser-output' and /wiki/ links",
    "const DIGITS = /^\\d+$/; const x = a / b;",
  ])('leave %s alone', (src) => {
    expect(flagged(src)).toEqual([]);
  });
});

describe('src/engine states no markup in code', () => {
  it.each(files)('%s', (file) => {
    const allowed = new Set(ALLOWED.filter((a) => a.file === file).map((a) => a.literal));
    const source = readFileSync(join(ENGINE, file), 'utf8');
    expect(scanLiterals(source).balanced, `the scanner read src/engine/${file} to its end in step`).toBe(true);
    const findings = findMarkup(source, allowed);
    const report = findings.map((f) => `${file}:${f.line} ${f.pattern}: ${JSON.stringify(f.text)}`);
    expect(report, `markup literals in src/engine/${file} (move them to grammar/ with a why, or allow-list them with a reason)`).toEqual([]);
  });

  it('allows only literals that are still there, each with a reason', () => {
    for (const a of ALLOWED) {
      expect(a.why.length, `${a.file} ${a.literal}: a reason`).toBeGreaterThan(20);
      const { literals } = scanLiterals(readFileSync(join(ENGINE, a.file), 'utf8'));
      expect(literals.some((l) => l.text === a.literal), `${a.file} still has ${JSON.stringify(a.literal)}`).toBe(true);
    }
  });
});
