import { describe, expect, it } from 'vitest';
import { MAX_NESTING, flattenDeepNesting, nestingDepth } from '../../src/engine/nesting.js';

describe('deep-nesting guard (nesting.ts)', () => {
  it('measures nesting the way the parser stacks elements', () => {
    expect(nestingDepth('<div><span><b>x</b></span></div>')).toBe(3);
    expect(nestingDepth('<p>a<p>b<p>c'), 'unclosed p are siblings').toBe(0);
    expect(nestingDepth('<ul><li>a<li>b</ul>')).toBe(1);
    expect(nestingDepth('<div><br><img src="x"><hr/></div>'), 'void elements build no depth').toBe(1);
    expect(nestingDepth('<div title="a > b"><span>x</span></div>'), 'a > inside a quoted value does not end the tag').toBe(2);
    expect(nestingDepth('<!-- <div><div> --><div></div>'), 'comments are skipped').toBe(1);
    expect(nestingDepth('<script>if (a<b) { "<div><div><div>" }</script><i>x</i>'), 'script bodies are skipped').toBe(1);
    expect(nestingDepth('<b><i></b></i><b></b>'), 'a misnested end tag closes what is above its element').toBe(2);
  });

  it('leaves ordinary documents untouched (the same string)', () => {
    const html = '<div><p>Hello <b>world</b></p></div>';
    expect(flattenDeepNesting(html)).toBe(html);
  });

  it('drops only the tags deeper than the limit and keeps all text', () => {
    const html = `${'<span>'.repeat(5)}deep${'</span>'.repeat(5)}<i>after</i>`;
    expect(flattenDeepNesting(html, 2)).toBe('<span><span>deep</span></span><i>after</i>');
  });

  it('keeps the depth within the limit for 100,000 nested elements, even with stray end tags between them', () => {
    const deep = `${'<span></q>'.repeat(100_000)}x${'</span>'.repeat(100_000)}`;
    expect(nestingDepth(deep), 'stray end tags do not hide the depth').toBe(100_000);
    const flat = flattenDeepNesting(deep);
    expect(nestingDepth(flat)).toBe(MAX_NESTING);
    expect(flat).toContain('x');
  });
});
