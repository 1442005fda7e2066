import { describe, expect, test } from 'vitest';
import { TextCache } from '../../../src/service/content/text-cache.js';

describe('TextCache', () => {
  test('keeps the most recently used texts within its byte budget', () => {
    const cache = new TextCache(20); // ten UTF-16 code units
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a'), 'a is there (and now the most recent)').toBe('aaaa');
    cache.set('c', 'cccc');
    expect([cache.get('a'), cache.get('b'), cache.get('c')], 'b, the least recently used, went').toEqual(['aaaa', undefined, 'cccc']);
    cache.set('huge', 'x'.repeat(11));
    expect([cache.get('huge'), cache.size], 'a text over the budget is not kept and evicts nothing').toEqual([undefined, 2]);
    cache.set('a', 'AAAAAA');
    expect([cache.get('a'), cache.get('c')], 'replacing a key accounts for the new size').toEqual(['AAAAAA', 'cccc']);
  });
});
