/**
 * The tree-construction rules of htmlparser2 v12's `Parser` (src/Parser.ts), copied as data so
 * that tree-builder.ts builds exactly the tree `parseDocument` builds. htmlparser2 does not export
 * these tables. When htmlparser2 is upgraded, diff its Parser against this file; the test
 * test/engine/tree-builder.test.ts compares the two trees on the corpus and on generated markup
 * and fails when they drift apart.
 */

const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);

/** A start tag `key` first closes every open element on top of the stack named in its set. */
export const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', headingTags],
  ['h2', headingTags],
  ['h3', headingTags],
  ['h4', headingTags],
  ['h5', headingTags],
  ['h6', headingTags],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['address', pTag],
  ['article', pTag],
  ['aside', pTag],
  ['blockquote', pTag],
  ['details', pTag],
  ['div', pTag],
  ['dl', pTag],
  ['fieldset', pTag],
  ['figcaption', pTag],
  ['figure', pTag],
  ['footer', pTag],
  ['form', pTag],
  ['header', pTag],
  ['hr', pTag],
  ['main', pTag],
  ['nav', pTag],
  ['ol', pTag],
  ['pre', pTag],
  ['section', pTag],
  ['table', pTag],
  ['ul', pTag],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);

/** Elements that never hold content: never pushed on the open-element stack. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * htmlparser2's Tokenizer's special tags: opened in HTML content (not SVG or MathML), their text
 * runs to their end tag with no markup in it. Raw text keeps its character references as written;
 * RCDATA's are decoded, except where the tokenizer is matching the end tag (tree-builder.ts).
 */
export const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
export const RCDATA_ELEMENTS: ReadonlySet<string> = new Set(['title', 'textarea']);

/** The namespaces the open-element stack tracks: HTML, or foreign content (SVG, MathML). */
export const HTML = 0;
export const SVG = 1;
export const MATHML = 2;
export type Namespace = typeof HTML | typeof SVG | typeof MATHML;

/** The namespace an element opens: `svg` and `math` enter one, integration points return to HTML. */
export const NAMESPACE_OF: ReadonlyMap<string, Namespace> = new Map<string, Namespace>([
  ['svg', SVG],
  ['math', MATHML],
  // HTML integration points, in their SVG-adjusted casing (compared with adjusted names).
  ['mi', HTML],
  ['mo', HTML],
  ['mn', HTML],
  ['ms', HTML],
  ['mtext', HTML],
  ['annotation-xml', HTML],
  ['foreignObject', HTML],
  ['desc', HTML],
  ['title', HTML],
]);

/** SVG element names whose camel case the lower-cased tag name must get back. */
export const SVG_TAG_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath',
    'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
    'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
    'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
    'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient',
    'radialGradient', 'textPath',
  ].map((name) => [name.toLowerCase(), name]),
);
