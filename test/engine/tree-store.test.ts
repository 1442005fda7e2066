/**
 * The tree store (src/engine/tree-store.ts): which pages stay readable, the columns reused from
 * page to page, and the pages the store cannot number. The trees themselves are compared with
 * htmlparser2's in tree-builder.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attr, childNodes, firstElementChild, parseHtml, rawText, tagName, withDocument } from '../../src/engine/dom.js';
import type { Document } from '../../src/engine/dom.js';
import { InputTooComplexError } from '../../src/engine/errors.js';
import { buildTree, MAX_NESTING } from '../../src/engine/tree-builder.js';
import { treeOf } from '../../src/engine/tree-store.js';

const STALE = /parsed more than 4 pages ago/;

describe('tree store', () => {
  it('keeps the last four pages readable and refuses a handle of an older one', () => {
    const docs = [1, 2, 3, 4, 5].map((i) => parseHtml(`<p class="n${i}">page ${i}</p>`));
    for (let i = 1; i < 5; i++) {
      expect(rawText(docs[i]!)).toBe(`page ${i + 1}`);
      expect(attr(firstElementChild(docs[i]!)!, 'class')).toBe(`n${i + 1}`);
    }
    expect(() => rawText(docs[0]!)).toThrow(STALE);
    expect(() => childNodes(docs[0]!)).toThrow(STALE);
  });

  it('lets a page go when withDocument returns, and when its reader throws', () => {
    let kept: Document | undefined;
    expect(withDocument('<p>read</p>', (doc) => ((kept = doc), rawText(doc)))).toBe('read');
    expect(() => rawText(kept!)).toThrow(STALE);
    expect(() =>
      withDocument('<p>thrown</p>', (doc) => {
        kept = doc;
        throw new Error('the reader failed');
      }),
    ).toThrow('the reader failed');
    expect(() => rawText(kept!)).toThrow(STALE);
  });

  it('gives the next page the columns of the page let go, and keeps no huge ones', () => {
    const first = withDocument('<p>one</p>', (doc) => treeOf(doc));
    const second = withDocument('<p>two</p>', (doc) => treeOf(doc));
    expect(second).toBe(first);
    // More nodes than a tree keeps columns for (KEEP_NODES, 2^20): let go, they are dropped.
    const huge = withDocument('<br>'.repeat(1_100_000), (doc) => {
      expect(childNodes(doc).length).toBe(1_100_000);
      return treeOf(doc);
    });
    expect(huge.kind.length).toBe(0);
    const next = withDocument('<p>three</p>', (doc) => treeOf(doc));
    expect(next).not.toBe(huge);
    expect(next.kind.length).toBeLessThan(1 << 20);
  });

  it('refuses a page of more nodes than it can number with INPUT_TOO_COMPLEX, and lets it go', () => {
    const page = '<p>a</p><p>b</p>';
    let error: unknown;
    try {
      buildTree(page, MAX_NESTING, 4);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputTooComplexError);
    expect(error).toMatchObject({ code: 'INPUT_TOO_COMPLEX', limit: 'nodes', value: 4, inputBytes: page.length });
    expect((error as Error).message).toMatch(/at most 4 nodes of the HTML tree/);
    // The document, two paragraphs and their texts: five nodes fit in five.
    expect(() => buildTree(page, MAX_NESTING, 5)).not.toThrow();
  });

  it('reads every page kept by its own handles, whatever the order of kept and scoped parses', () => {
    // The tags cycle every 128 pages: a handle that old could alias a new page, so runs stay shorter.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 60 }), (ops) => {
        const kept: { doc: Document; text: string; at: number }[] = [];
        let parses = 0;
        for (const [keep, raw] of ops) {
          const text = raw.replace(/[<&]/g, '');
          const html = `<b title="${text.replace(/"/g, '')}">${text}</b>`;
          if (keep) kept.push({ doc: parseHtml(html), text, at: parses });
          else expect(withDocument(html, (doc) => tagName(firstElementChild(doc)!))).toBe('b');
          parses++;
          for (const k of kept) {
            if (parses - k.at <= 4) expect(rawText(k.doc)).toBe(k.text);
            else expect(() => rawText(k.doc)).toThrow(STALE);
          }
        }
      }),
    );
  });
});
