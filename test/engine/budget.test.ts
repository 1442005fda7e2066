/**
 * The per-page work budget (src/engine/budget.ts): work that multiplies (span expansion, padding,
 * a spanned cell's text, links and citations) is charged before it is done, in both doors; a page
 * over a limit is refused with InputTooComplexError naming the limit and its value; and no real
 * article of the corpus comes anywhere near a limit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputTooComplexError, WORK_LIMITS, WikistructError, parse, parseEnvelope, parseWikitext, workLimits } from '../../src/index.js';
import type { WorkLimit } from '../../src/index.js';
import { WorkBudget } from '../../src/engine/budget.js';
import type { Extracted } from '../../src/engine/extracted.js';
import { readInput } from '../../src/engine/input.js';
import { readHtml } from '../../src/engine/parse.js';
import { readWikitext } from '../../src/engine/wikitext/index.js';
import type { Part } from '../../src/schema/article.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';
import { usageOf } from './budget-usage.js';
import { spannedTableHtml } from './complex-pages.js';

/** The error `run` throws; fails the test if it throws none or an untyped one. */
function refusal(run: () => unknown): InputTooComplexError {
  try {
    run();
  } catch (error) {
    expect(error, 'a typed error').toBeInstanceOf(InputTooComplexError);
    return error as InputTooComplexError;
  }
  throw new Error('expected INPUT_TOO_COMPLEX, got an Article');
}

const html = (body: string): string => `<html><head><base href="//en.wikipedia.org/wiki/"></head><body><p>Lead.</p>${body}</body></html>`;

describe('InputTooComplexError', () => {
  it('is a WikistructError with code INPUT_TOO_COMPLEX, the limit, its value and the input size', () => {
    const page = spannedTableHtml();
    const error = refusal(() => parse(page));
    expect(error).toBeInstanceOf(WikistructError);
    expect(error.code).toBe('INPUT_TOO_COMPLEX');
    expect(error.limit).toBe('cells');
    expect(error.inputBytes).toBe(Buffer.byteLength(page));
    expect(error.value).toBe(workLimits(error.inputBytes).cells);
    expect(error.message).toBe(
      `input is too complex: a page of ${error.inputBytes} bytes may make at most 50000 table cells (a spanned cell counts once per slot it fills, padding included); limit "cells": the larger of 50000 and 0.5 per byte`,
    );
  });

  it('each limit is max(floor, perByte × bytes)', () => {
    expect(workLimits(1000)).toEqual({ cells: 50_000, cellText: 2_000_000, parts: 20_000, links: 20_000, citations: 10_000, references: 10_000, depth: 256 });
    expect(workLimits(10_000_000)).toEqual({ cells: 5_000_000, cellText: 40_000_000, parts: 5_000_000, links: 2_500_000, citations: 1_000_000, references: 1_000_000, depth: 256 });
  });
});

describe('span expansion and padding are charged before they are done, in both doors', () => {
  it('HTML: one cell spanning 1000 × 100 slots in a 1 KB page', () => {
    expect(refusal(() => parse(spannedTableHtml())).limit).toBe('cells');
  });

  it('wikitext: cells spanning 1000 columns in a 1 KB page', () => {
    const text = `{|\n${'|-\n| colspan=1000 | x\n'.repeat(60)}|}\n`;
    expect(refusal(() => parseWikitext(text)).limit).toBe('cells');
  });

  it('an envelope through either door', () => {
    expect(refusal(() => parseEnvelope({ article_body: { html: spannedTableHtml() } })).limit).toBe('cells');
    expect(refusal(() => parseEnvelope({ article_body: { wikitext: `{|\n${'|-\n| colspan=1000 | x\n'.repeat(60)}|}\n` } })).limit).toBe('cells');
  });

  it('padding: a long first row and a long first column, no span at all', () => {
    const row = `<tr>${'<td>a</td>'.repeat(2000)}</tr>`;
    const page = html(`<table>${row}${'<tr><td>b</td></tr>'.repeat(2000)}</table>`);
    expect(refusal(() => parse(page)).limit, '2000 × 2001 cells from 56 KB').toBe('cells');
    const text = `{|\n|-\n${'| a\n'.repeat(2000)}${'|-\n| b\n'.repeat(2000)}|}\n`;
    expect(refusal(() => parseWikitext(text)).limit, 'the same in wikitext').toBe('cells');
  });

  it("a spanned cell's text, links and citations count once per slot", () => {
    const text = 'word '.repeat(20_000);
    expect(refusal(() => parse(html(`<table><tr><td colspan=40>${text}</td></tr></table>`))).limit).toBe('cellText');
    const links = '<a href="./A">a</a>'.repeat(500);
    expect(refusal(() => parse(html(`<table><tr><td colspan=1000>${links}</td></tr></table>`))).limit).toBe('links');
    const cites = '<sup class="reference"><a href="#cite_note-1">[1]</a></sup>'.repeat(100);
    const list = '<ol class="references"><li id="cite_note-1">Note.</li></ol>';
    expect(refusal(() => parse(html(`<table><tr><td colspan=1000>${cites}</td></tr></table>${list}`))).limit).toBe('citations');
    const wikiLinks = `{|\n| colspan=1000 | ${'[[a]]'.repeat(500)}\n|}\n`;
    expect(refusal(() => parseWikitext(wikiLinks, { project: 'enwiki' })).limit, 'links in wikitext').toBe('links');
  });

  it('lets through tables as dense as markup makes them without spans', () => {
    const cells = `{|\n${`|-\n${'|1||2||3||4||5||6||7||8||9||10\n'}`.repeat(3000)}|}\n`; // 30,000 cells, 2.9 bytes each
    expect(parseWikitext(cells).tables[0]!.rows.length).toBe(3000);
    const grid = html(`<table>${`<tr>${'<td>1</td>'.repeat(10)}</tr>`.repeat(3000)}</table>`);
    expect(parse(grid).tables[0]!.rows.length).toBe(3000);
  });
});

describe('limits from the page text', () => {
  it('are those of its UTF-8 bytes, counted only when a count passes the limits of its length', () => {
    // 200,000 code units, 400,000 bytes: 100,000 cells by the length, 200,000 by the bytes.
    const budget = WorkBudget.of('é'.repeat(200_000));
    expect(() => budget.charge('cells', 150_000), 'over the limit of the length, under that of the bytes').not.toThrow();
    const error = refusal(() => budget.charge('cells', 60_000));
    expect(error.limit).toBe('cells');
    expect(error.value).toBe(200_000);
    expect(error.inputBytes).toBe(400_000);
    expect(WorkBudget.of('\u{1F600}'.repeat(10)).inputBytes, 'astral: 4 bytes for 2 code units').toBe(40);
  });
});

describe('what a front door extracted', () => {
  const extracted = (sections: Part[], references = 0): Extracted => ({
    sections,
    lead: [],
    infoboxes: [],
    tables: [],
    references: Array.from({ length: references }, (_, i) => ({ identifier: `r${i}`, text: { value: 'x' } }) as never),
  });
  const charge = (x: Extracted, bytes = 1000): string | undefined => {
    try {
      new WorkBudget(bytes).extracted(x);
    } catch (error) {
      return (error as InputTooComplexError).limit;
    }
    return undefined;
  };

  it('counts parts, their links and citations, nesting and references', () => {
    const many = <T,>(n: number, make: () => T): T[] => Array.from({ length: n }, make);
    expect(charge(extracted(many(20_001, () => ({ type: 'paragraph', value: 'a' }))))).toBe('parts');
    expect(charge(extracted(many(20_000, () => ({ type: 'paragraph', value: 'a' }))))).toBeUndefined();
    expect(charge(extracted([{ type: 'paragraph', links: many(20_001, () => ({ url: 'u' }) as never) }]))).toBe('links');
    expect(charge(extracted([{ type: 'paragraph', citations: many(10_001, () => ({ identifier: 'c' }) as never) }]))).toBe('citations');
    expect(charge(extracted([], 10_001))).toBe('references');
    let deep: Part = { type: 'list_item', value: 'x' };
    for (let i = 0; i < 300; i++) deep = { type: 'list', has_parts: [deep] };
    expect(charge(extracted([deep])), 'walked without recursion, refused past 256 levels').toBe('depth');
  });

  it('scales with the input', () => {
    const paragraphs = Array.from({ length: 30_000 }, (): Part => ({ type: 'paragraph', value: 'a' }));
    expect(charge(extracted(paragraphs), 1000)).toBe('parts');
    expect(charge(extracted(paragraphs), 100_000)).toBeUndefined();
  });
});

const dir = corpusDir();

describe.skipIf(dir === undefined)('no real article comes near a limit', () => {
  /** Every corpus input through the door(s) it has: what it would charge, against its limits. */
  function inputs(): { name: string; bytes: number; extracted: () => Extracted }[] {
    const out: { name: string; bytes: number; extracted: () => Extracted }[] = [];
    for (const f of readdirSync(join(dir!, 'html')).filter((f) => f.endsWith('.html'))) {
      const source = readInput(readFileSync(join(dir!, 'html', f), 'utf8'), Number.MAX_SAFE_INTEGER);
      out.push({ name: `html/${f}`, bytes: Buffer.byteLength(source.html), extracted: () => readHtml(source).extracted });
    }
    for (const f of readdirSync(join(dir!, 'articles')).filter((f) => f.endsWith('.json'))) {
      const envelope = JSON.parse(readFileSync(join(dir!, 'articles', f), 'utf8')) as { name: string; article_body: { html: string; wikitext: string }; is_part_of?: { identifier: string } };
      const source = readInput(envelope, Number.MAX_SAFE_INTEGER);
      out.push({ name: `articles/${f} (HTML)`, bytes: Buffer.byteLength(source.html), extracted: () => readHtml(source).extracted });
      const text = envelope.article_body.wikitext;
      out.push({ name: `articles/${f} (wikitext)`, bytes: Buffer.byteLength(text), extracted: () => readWikitext(text, { name: envelope.name }).extracted });
    }
    for (const f of readdirSync(join(dir!, 'wikitext')).filter((f) => f.endsWith('.wikitext'))) {
      const text = readFileSync(join(dir!, 'wikitext', f), 'utf8');
      out.push({ name: `wikitext/${f}`, bytes: Buffer.byteLength(text), extracted: () => readWikitext(text, { project: f.split('__')[0]! }).extracted });
    }
    return out;
  }

  it('every corpus input, both doors, uses under half of each limit', { timeout: 300_000 }, () => {
    const near: string[] = [];
    let checked = 0;
    for (const input of inputs()) {
      const use = usageOf(input.extracted()); // parses: a limit tripped would throw here
      const limits = workLimits(input.bytes);
      for (const name of Object.keys(WORK_LIMITS) as WorkLimit[]) {
        if (use[name] * 2 > limits[name]) near.push(`${input.name}: ${name} ${use[name]} of ${limits[name]}`);
      }
      checked++;
    }
    expect(checked, 'the corpus (194 inputs when measured: 92 HTML pages, 12 envelopes twice, 78 wikitexts)').toBeGreaterThan(100);
    expect(near).toEqual([]);
  });
});
