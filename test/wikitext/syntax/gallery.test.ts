/**
 * The content of `<gallery>` (tokens/gallery.ts) against wikiparser-node's `ext-inner`. The
 * extension tags' stage (0) does not make galleries yet: here a stand-in for it makes the gallery
 * from the whole page, and our GalleryToken is compared with the library's `ext-inner` of `<gallery>…</gallery>`.
 */
import Parser from 'wikiparser-node';
import type { AstNodes as TheirNode } from 'wikiparser-node/dist/internal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { wikiProfile } from '../../../src/engine/wiki/profile.js';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import { STAGES } from '../../../src/engine/wikitext/syntax/stages/index.js';
import { GalleryToken } from '../../../src/engine/wikitext/syntax/tokens/gallery.js';
import { Token } from '../../../src/engine/wikitext/syntax/token.js';
import type { Stage } from '../../../src/engine/wikitext/syntax/token.js';
import { compareTrees } from '../../support/wikitext-trees.js';

const stages = STAGES as Stage[];
const stage0 = stages[0]!;
afterEach(() => {
  stages[0] = stage0;
});

function galleryDifferences(inner: string, language = 'en'): string[] {
  const config = parserConfig(wikiProfile({ project: `${language}wiki`, language }));
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  let theirs;
  try {
    theirs = Parser.parse(`<gallery>${inner}</gallery>`, false, undefined, config);
  } finally {
    Parser.viewOnly = viewOnly;
  }
  const ext = theirs.firstChild as unknown as { lastChild: TheirNode };
  stages[0] = (token, state) => {
    if (token.type !== 'root') return;
    const at = state.accum.length;
    token.raw = `\0${at}e\x7F`;
    // As the extension tag's code: the content is read with the tag's own configuration, and the
    // tag takes its place in the accum before its content once that is made.
    const outer = state.config as typeof state.config & { excludes: string[] };
    state.config = { ...outer, ext: outer.ext.filter((e) => e !== 'gallery'), excludes: [...outer.excludes], inExt: true } as typeof outer;
    let gallery: GalleryToken;
    try {
      gallery = new GalleryToken(inner, state);
    } finally {
      state.config = outer;
    }
    const ext = new Token('ext', state);
    state.accum.pop();
    ext.append(gallery);
    state.accum.splice(at, 0, ext);
  };
  const ours = parseWikitextTree(inner, config);
  return compareTrees((ours.firstChild as Token).lastChild!, ext.lastChild, 5).map((d) => `${d.path} ${d.what}: ours ${d.ours} theirs ${d.theirs}`);
}

const CASES: readonly { inner: string; language?: string }[] = [
  { inner: '\nFile:A.jpg|A [[b]] caption\nFile:B.jpg\n' },
  { inner: '\nFile:A.jpg|thumb|left|alt=x|link=Foo|lang=de|page=2|caption\nImage:B.svg|lang=de|x\n\n  \nnot a file\n|pipe first\n' },
  { inner: '\nA.jpg|no namespace\nFile:<x>.jpg|invalid\nFile:A.jpg|[[File:B.jpg|thumb|c]] and http://x.com ISBN 0306406152\n' },
  { inner: '\nFile:A.jpg|[http://x.com X] [[a|b]]\nFile:A%20B.jpg|x\nFile:A.jpg|link=http://x.com|y\nFile:A.jpg|link=bad<|y\n' },
  { inner: 'File:A.jpg|first line' },
  // Inside an extension tag the links stage reads `[[…]]` with the library's stricter pattern.
  { inner: '\nFile:A.jpg|[[a|]] [[]] [[b|c]] [[File:B.jpg|]] [[File:C.jpg|x]]\nFile:A.jpg|x [[a|]]]] y\n' },
  { inner: '\nFile:A.jpg|x\u2028y\nFile:A.jpg|a\rb\nFile:A.jpg|-{a|b}-|c\n' },
  { inner: '' },
  { inner: '\nファイル:A.jpg|サムネイル|キャプション\n画像:B.png|説明\n', language: 'ja' },
  { inner: '\nDatei:A.jpg|Bild [[x]]\nBild:B.png|mini|y\n', language: 'de' },
  { inner: '\nФайл:A.jpg|Подпись [[x|y]]\n', language: 'ru' },
];

describe('<gallery> content against wikiparser-node', () => {
  it.each(CASES)('$inner', ({ inner, language }) => {
    expect(galleryDifferences(inner, language)).toEqual([]);
  });
});
