/**
 * The most recently served Article JSON texts, bounded by size. The store stays the source of
 * truth (its row says which revision is current; keys name the revision); this only saves
 * reading a large text column from the database when a popular article's reply is made again
 * (another field selection, another content coding, the reply cache having evicted it).
 */
import { LRUCache } from 'lru-cache';

export class TextCache {
  readonly #entries: LRUCache<string, string> | undefined;

  /** `maxBytes` 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#entries =
      maxBytes > 0
        ? new LRUCache<string, string>({
            maxSize: maxBytes,
            // UTF-16 code units, two bytes each: an estimate of the heap a string holds (lru-cache
            // wants a positive size, and an empty text still costs its entry).
            sizeCalculation: (text) => Math.max(1, text.length * 2),
          })
        : undefined;
  }

  get(key: string): string | undefined {
    return this.#entries?.get(key);
  }

  /** A text larger than the whole budget is not kept (and evicts nothing). */
  set(key: string, text: string): void {
    this.#entries?.set(key, text);
  }

  get size(): number {
    return this.#entries?.size ?? 0;
  }
}
