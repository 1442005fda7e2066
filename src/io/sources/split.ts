/**
 * Byte-level record splitters over a stream of chunks. They never decode text (workers do that)
 * and copy each record once into its own buffer, so that it can be transferred to a worker.
 */

import { release } from '../release.js';

/**
 * One fresh, exactly-sized buffer holding `parts` followed by `last`. allocUnsafeSlow: its own
 * ArrayBuffer (transferable, unlike pooled Buffers) and no zero-fill of bytes about to be overwritten.
 */
function join(parts: Uint8Array[], last: Uint8Array): Uint8Array {
  let size = last.length;
  for (const p of parts) size += p.length;
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(last, at);
  return out;
}

export interface Line {
  /** 1-based line number in the stream. */
  line: number;
  bytes: Uint8Array;
  /** The stream's last line, ended by the end of the stream rather than a newline. */
  unterminated?: true;
}

/**
 * Non-blank lines (a trailing `\r` removed), with their line numbers. A stream that fails
 * throws before its pending (incomplete) line: only whole lines are yielded. The chunks are the
 * splitter's once read: each one that owns its buffer is freed (io/release.ts) as soon as its
 * bytes are all copied into lines.
 */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Line> {
  let parts: Uint8Array[] = [];
  // The chunks `parts` are views of: each is freed once its bytes are copied into lines.
  let held: Uint8Array[] = [];
  let line = 0;
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      line += 1;
      const bytes = trimLine(join(parts, chunk.subarray(start, nl)));
      parts = [];
      held.forEach(release);
      held = [];
      if (bytes !== undefined) yield { line, bytes };
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      held.push(chunk);
    } else {
      // Every byte of it is in a line: a read chunk the main thread would otherwise keep until
      // its next garbage collection, which its little JavaScript makes rare (io/release.ts).
      release(chunk);
    }
  }
  if (parts.length > 0) {
    const bytes = trimLine(join(parts, new Uint8Array(0)));
    if (bytes !== undefined) yield { line: line + 1, bytes, unterminated: true };
  }
}

/** Drops a trailing CR; undefined for a blank line. */
function trimLine(bytes: Uint8Array): Uint8Array | undefined {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 13) end -= 1;
  let blank = true;
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b !== 32 && b !== 9) {
      blank = false;
      break;
    }
  }
  if (blank) return undefined;
  // A view: the line still owns the whole (fresh) buffer, which is what a transfer needs.
  return end === bytes.length ? bytes : bytes.subarray(0, end);
}

/**
 * The stream ended, or failed (`cause`), inside a span: `partial` holds the span's bytes so far,
 * from its opening marker (a cut dump's last page, whose title the reader may still name).
 */
export class SpanCut extends Error {
  constructor(
    readonly partial: Uint8Array,
    cause?: unknown,
  ) {
    super('the input ends inside a span', cause === undefined ? undefined : { cause });
  }
}

export interface SpanEvents {
  /** The bytes before the first span (the dump's `<siteinfo>`), at most `prefixLimit` of them. */
  onPrefix: (prefix: Uint8Array) => void;
  /**
   * When the stream ended outside a span: its last bytes after the last span (at most
   * `suffixLimit`; the whole stream's when it held no span), e.g. the root's closing tag.
   */
  onSuffix?: (suffix: Uint8Array) => void;
}

/**
 * Every `open ... close` span (markers included), e.g. each `<page>...</page>` of an XML dump.
 * Markers straddling chunk boundaries are found: the last `marker.length - 1` bytes of each
 * chunk are carried into the next search. A stream ending or failing inside a span throws
 * `SpanCut`; a stream failing outside one throws its own error. As splitLines does, each chunk
 * that owns its buffer is freed once no span still needs its bytes: the bytes kept from outside
 * the spans (the prefix, the suffix) and the carried marker bytes are copies, never views.
 */
export async function* splitSpans(
  chunks: AsyncIterable<Uint8Array>,
  open: string,
  close: string,
  events: SpanEvents,
  prefixLimit = 4 * 1024 * 1024,
  suffixLimit = 64 * 1024,
): AsyncGenerator<Uint8Array> {
  const openBytes = Buffer.from(open);
  const closeBytes = Buffer.from(close);
  let carry: Buffer = Buffer.alloc(0);
  let inside = false;
  let parts: Uint8Array[] = [];
  let prefix: Uint8Array[] | undefined = [];
  let prefixSize = 0;
  // Copies of the bytes since the last span closed (at most suffixLimit of each run), the oldest
  // dropped past suffixLimit: copies, so the chunks they come from can be freed.
  let suffix: Uint8Array[] = [];
  let suffixSize = 0;
  // The chunks the open span's `parts` are views of: freed once the span is joined.
  let held: Uint8Array[] = [];
  const outside = (bytes: Uint8Array): void => {
    if (bytes.length === 0) return;
    // Buffer.from copies (a Buffer's own `slice` would be a view).
    const kept = Buffer.from(bytes.subarray(Math.max(0, bytes.length - suffixLimit)));
    suffix.push(kept);
    suffixSize += kept.length;
    while (suffixSize - suffix[0]!.length >= suffixLimit) suffixSize -= suffix.shift()!.length;
    if (prefix === undefined || prefixSize >= prefixLimit) return;
    prefix.push(Buffer.from(bytes.subarray(0, prefixLimit - prefixSize)));
    prefixSize += Math.min(bytes.length, prefixLimit - prefixSize);
  };
  const endPrefix = (): void => {
    if (prefix === undefined) return;
    events.onPrefix(join(prefix, new Uint8Array(0)));
    prefix = undefined;
  };
  try {
    for await (const chunk of chunks) {
      let data: Buffer;
      if (carry.length > 0) {
        data = Buffer.concat([carry, chunk]);
        release(chunk);
      } else data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      let pos = 0;
      for (;;) {
        if (!inside) {
          const i = data.indexOf(openBytes, pos);
          if (i === -1) {
            const keep = Math.min(openBytes.length - 1, data.length - pos);
            outside(data.subarray(pos, data.length - keep));
            carry = Buffer.from(data.subarray(data.length - keep));
            break;
          }
          outside(data.subarray(pos, i));
          endPrefix();
          inside = true;
          parts = [];
          pos = i;
        } else {
          const j = data.indexOf(closeBytes, pos);
          if (j === -1) {
            const keep = Math.min(closeBytes.length - 1, data.length - pos);
            parts.push(data.subarray(pos, data.length - keep));
            held.push(data);
            carry = Buffer.from(data.subarray(data.length - keep));
            break;
          }
          const end = j + closeBytes.length;
          const span = join(parts, data.subarray(pos, end));
          parts = [];
          held.forEach(release);
          held = [];
          yield span;
          suffix = [];
          suffixSize = 0;
          inside = false;
          pos = end;
        }
      }
      // Every byte of this chunk is copied (into spans, the carry, the prefix or the suffix)
      // unless the open span holds a view of it.
      if (held[held.length - 1] !== data) release(data);
    }
  } catch (error) {
    if (inside) throw new SpanCut(join(parts, carry), error);
    throw error;
  }
  if (inside) throw new SpanCut(join(parts, carry));
  outside(carry);
  endPrefix();
  events.onSuffix?.(join(suffix, new Uint8Array(0)));
}
