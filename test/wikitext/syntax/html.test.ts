/**
 * Stage 2, HTML tags, and stage 4, `----`, behaviour switches and headings inside tokens
 * (src/engine/wikitext/syntax/stages/html.ts, hr-and-double-underscore.ts) against wikiparser-node.
 */
import { describe, expect, it } from 'vitest';
import { bundledConfig, differences } from './block-oracle.js';

const HTML = [
  'a <span class="x" id=y>b</span> c',
  '<br/> <br /> <BR> </br> <br> </br >',
  '<hr> <hr/> </hr> <img src=x> </img> <wbr>',
  '<DIV Class=a>x</Div>',
  '<p>a<p>b</p>',
  '<span>a</span',
  '< span>a</ span>',
  '<span\n>a</span\n>',
  '<span/a>',
  '<span//>',
  '<foo>x</foo> <font color=red>x</font> <center>c</center> <tt>t</tt>',
  '<meta itemprop="a" content="b"><meta content=x><meta itemprop=a>',
  '<link itemprop=a href=b><link href=b><link itemprop=a>',
  '</span a=b>',
  '<span title="x>y">z</span>',
  '<span a="b">c <b>d <i>e</i></b></span>',
  '<table><tr><td>x</td></tr></table>',
  'a < b > c <> <',
  '<h2>x</h2> <h7>y</h7>',
  '<ruby><rb>a</rb><rp>(</rp><rt>b</rt><rp>)</rp></ruby>',
  '<s>x</s><del>y</del><ins>z</ins><u>u</u><q>q</q><abbr title="t">a</abbr>',
  '<ref name=x><span>a</span></ref>',
  '<poem>a <span>b</span></poem>',
  '<nowiki><span>a</span></nowiki>',
  '{|\n|<span>a\n|}</span>',
  '<span>\n{|\n|a\n|}\n</span>',
  '<span a="\u0001\u007f\ufffd">x</span>',
];

const HR = [
  '__NOTOC__ a __toc__ __DISAMBIG__ __disambig__ __FOO__ __NOEDITSECTION__',
  '----\n-----x ----\n ----\n---',
  '{|\n|\n== h ==\n----\n__NOTOC__\n|a\n=x= \n|b\n======= c =======\n|}',
  '{|\n|a\n|-\n=x=\n|}',
  '<ref>\n== h ==\n----\n__TOC__</ref>',
  '<poem>\n== a ==\n----\n__NOTOC__\n</poem>',
  '＿＿目次＿＿ __目次__',
  '=a=\n==b==\n== c = \n=d',
];

describe('HTML tags against wikiparser-node', () => {
  it.each(HTML)('%j', (text) => {
    expect(differences(text)).toEqual([]);
  });

  it('deeply nested tags', () => {
    expect(differences(`${'<span>'.repeat(200)}x${'</span>'.repeat(200)}`)).toEqual([]);
  });

  it.each(['de', 'ja', 'zh'])('on the %s wiki', (language) => {
    expect(differences('<span class=a>x</span><br>\n{|\n|a<br/>\n|}', 5, language)).toEqual([]);
  });
});

describe('hr, behaviour switches and headings inside tokens against wikiparser-node', () => {
  it.each(HR)('%j', (text) => {
    expect(differences(text)).toEqual([]);
  });

  it.each([
    ['jawiki', '＿＿目次＿＿ __目次__ __TOC__ __NOTOC__ ＿＿目次非表示＿＿ __目次非表示__ ＿＿＿＿ ＿＿foo＿＿ __ToC__ __目次強制__'],
    ['jawiki', '{|\n|\n＿＿目次＿＿\n== 節 ==\n|}'],
    ['zhwiki', '__无目录__ __NOTOC__ __不转换标题__ __NOCONTENTCONVERT__ __NoTOC__ __DISAMBIG__ __disambig__'],
    ['moegirl', '__NOTOC__ __NOEDITSECTION__'],
  ] as const)('behaviour switches with the library\'s %s configuration', (name, text) => {
    expect(differences(text, 5, bundledConfig(name))).toEqual([]);
  });
});
