/**
 * The one-line value of a list field (src/engine/item-text.ts), shared by both doors: items joined
 * by "; ", sub-items in parentheses, and no second separator after an item that ends in one.
 */
import { describe, expect, it } from 'vitest';
import { itemsText } from '../../src/engine/item-text.js';
import type { Part } from '../../src/index.js';

const item = (value: string, children?: Part[]): Part => ({ type: 'list_item', value, ...(children === undefined ? {} : { has_parts: children }) });

describe('itemsText', () => {
  it('joins items with "; " and puts sub-items in parentheses, or after a lead-in colon', () => {
    expect(itemsText([item('Christianity', [item('Protestantism'), item('Catholicism')]), item('Islam')])).toBe('Christianity (Protestantism; Catholicism); Islam');
    expect(itemsText([item('By race:', [item('70% White'), item('12% Black')])])).toBe('By race: 70% White; 12% Black');
  });

  it('follows an item that ends in a separator with a space, not a second separator', () => {
    expect(itemsText([item('Willie Wells (1919 div 1919),'), item('Jean Lion (1937 div 1940),'), item('Jo Bouillon')])).toBe('Willie Wells (1919 div 1919), Jean Lion (1937 div 1940), Jo Bouillon');
    expect(itemsText([item('столица государства,'), item('административный центр земли')])).toBe('столица государства, административный центр земли');
    expect(itemsText([item('東京、'), item('大阪')])).toBe('東京、大阪');
    expect(itemsText([item('a;'), item('b')])).toBe('a; b');
  });
});
