import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import type { Table } from '../../src/index.js';

const page = (body: string): string =>
  `<html><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//en.wikipedia.org/wiki/"/><title>T</title></head><body><section data-mw-section-id="0"><p>Lead.</p></section><section data-mw-section-id="1"><h2>S</h2>${body}</section></body></html>`;

const tablesOf = (body: string): Table[] => parse(page(body)).tables;

const clean = `<table class="wikitable"><tr><th>A</th><th>B</th><th>C</th></tr>
  <tr><td>1</td><td>2</td><td>3</td></tr><tr><td>4</td><td>5</td><td>6</td></tr><tr><td>7</td><td>8</td><td>9</td></tr></table>`;
const ragged = `<table><tr><td>1</td></tr><tr><td>2</td><td>3</td><td>4</td></tr><tr><td></td><td>5</td></tr><tr><td><ul><li>x</li></ul></td></tr></table>`;

describe('tables', () => {
  it('scores a clean data table above a ragged one', () => {
    const [a] = tablesOf(clean);
    const [b] = tablesOf(ragged);
    expect(a!.confidence_score, 'clean wikitable with header row').toBe(1);
    expect(b!.confidence_score, 'ragged, headerless, sparse').toBeLessThan(0.5);
    expect(a!.confidence_score).toBeGreaterThan(b!.confidence_score);
  });

  it('penalises nested tables, layout classes and single-row tables', () => {
    const nested = tablesOf(`<table class="wikitable"><tr><th>A</th><th>B</th></tr><tr><td>1</td><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>`);
    expect(nested[0]!.confidence_score, 'outer table has a nested table').toBeLessThan(0.75);
    expect(nested[1]!.identifier, 'nested table becomes its own entry').toBe('table-2');
    const single = tablesOf(`<table class="wikitable"><tr><th>A</th><th>B</th></tr></table>`);
    expect(single[0]!.confidence_score, 'one row is not much of a table').toBeLessThanOrEqual(0.5);
    const quote = tablesOf(`<table class="quotebox"><tr><td>q</td></tr></table>`);
    expect(quote, 'layout tables are not tables: their text is section content').toEqual([]);
  });

  it('expands rowspan and colspan by repeating the spanned value', () => {
    const [t] = tablesOf(`<table class="wikitable"><tr><th>K</th><th>V</th><th>W</th></tr>
      <tr><td rowspan="3">r</td><td colspan="2">c</td></tr><tr><td>1</td><td>2</td></tr></table>`);
    expect(t!.rows).toEqual([
      [{ value: 'r' }, { value: 'c' }, { value: 'c' }],
      [{ value: 'r' }, { value: '1' }, { value: '2' }],
    ]);
  });

  it('caps absurd spans so a hostile table cannot exhaust memory', () => {
    const [t] = tablesOf(`<table><tr><td colspan="999999" rowspan="999999">x</td></tr><tr><td>y</td></tr></table>`);
    const grid = [...t!.headers, ...t!.rows];
    expect(grid.length, 'rowspan stops at the last row').toBe(2);
    expect(grid[1]![999]!.value, 'colspan capped at the HTML maximum of 1000, repeated into row 2').toBe('x');
    expect(grid[1]![1000]!.value, "row 2's own cell lands after the spanned block").toBe('y');
    expect(grid[0]!.length, 'the grid is 1001 wide, not a million').toBe(1001);
  });

  it('keeps row headers in the row and reads thead rows as headers', () => {
    const [t] = tablesOf(`<table class="wikitable"><thead><tr><td>Year</td><td>N</td></tr></thead><tbody><tr><th>2001</th><td>5</td></tr></tbody></table>`);
    expect(t!.headers).toEqual([[{ value: 'Year' }, { value: 'N' }]]);
    expect(t!.rows).toEqual([[{ value: '2001' }, { value: '5' }]]);
  });

  it('gives identifiers that are unique and stable across runs', () => {
    const body = clean + ragged + clean;
    const first = tablesOf(body).map((t) => t.identifier);
    expect(new Set(first).size).toBe(3);
    expect(tablesOf(body).map((t) => t.identifier)).toEqual(first);
  });
});
