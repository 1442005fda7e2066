/**
 * Stage 2, HTML tags: wikiparser-node's parser/html.js and its `#parseHtml` wrapper (src/index.js):
 * every `<name …>` or `</name>` of a known HTML element becomes an `html` token holding its
 * `html-attrs`; `<meta>` and `<link>` only with `itemprop` and their content.
 */
import type { Config } from 'wikiparser-node';
import type { Stage } from '../token.js';
import { AttributesToken, isExcluded } from '../tokens/attributes.js';
import { HtmlToken } from '../tokens/html.js';

const TAG = /^(\/?)([a-z][^\s/>]*)((?:\s|\/(?!>))[^>]*?)?(\/?>)([^<]*)$/iu;

/**
 * The known elements, per `config.html` (kept by the copies of a configuration the extension tags
 * make for their content, so one set serves them all).
 */
const ELEMENTS = new WeakMap<Config['html'], ReadonlySet<string>>();

function elementsOf(config: Config): ReadonlySet<string> {
  const { html } = config;
  let set = ELEMENTS.get(html);
  if (set === undefined) {
    set = new Set([...html[0], ...html[1], ...html[2]]);
    ELEMENTS.set(html, set);
  }
  return set;
}

export const parseHtml: Stage = (token, state) => {
  if (isExcluded(state.config, 'html')) return;
  const wikitext = token.raw!;
  // A text without `<` is left as it is.
  if (!wikitext.includes('<')) return;
  const elements = elementsOf(state.config);
  const { accum } = state;
  const bits = wikitext.split('<');
  let text = bits[0]!;
  for (let i = 1; i < bits.length; i++) {
    const x = bits[i]!;
    const mt = TAG.exec(x);
    const name = mt?.[2]!.toLowerCase();
    if (mt === null || !elements.has(name!)) {
      text += `<${x}`;
      continue;
    }
    const { length } = accum;
    const attrs = new AttributesToken(mt[3] ?? '', 'html-attrs', name!, state);
    if (name === 'meta' || name === 'link') {
      const itemprop = attrs.hasAttr('itemprop');
      if (!(itemprop && attrs.hasAttr(name === 'meta' ? 'content' : 'href'))) {
        text += `<${x}`;
        accum.length = length;
        continue;
      }
    }
    text += `\0${accum.length}x\x7F${mt[5]}`;
    new HtmlToken(mt[2]!, attrs, mt[1] === '/', mt[4] === '/>', state);
  }
  token.raw = text;
};
