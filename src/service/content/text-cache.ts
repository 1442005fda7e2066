/**
 * The most recently served Article JSON texts, bounded by size. The store stays the source of
 * truth (its row says which revision is current); this only saves reading a large text column
 * from the database on every request for a popular article.
 */
export class TextCache {
  readonly #entries = new Map<string, string>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const text = this.#entries.get(key);
    if (text !== undefined) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, text);
    }
    return text;
  }

  set(key: string, text: string): void {
    // UTF-16 code units, two bytes each: an estimate of the heap it holds.
    const size = text.length * 2;
    if (size > this.maxBytes) return;
    const before = this.#entries.get(key);
    if (before !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= before.length * 2;
    }
    this.#entries.set(key, text);
    this.#bytes += size;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= value.length * 2;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
