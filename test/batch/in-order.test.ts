/**
 * The one conversion loop of `convert` and of a queue shard, alone: outcomes settled in input
 * order, unreadable inputs settled at their place without reaching the pool, the window bounded
 * in records and in payload bytes, and a fatal `settle` stopping the reader. The real worker pool
 * (running dist/) converts, except where the test must decide which record finishes first: there
 * a pool over the same interface (`size`, `run`) resolves the records in reverse.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { convertInOrder, WINDOW_BYTES, WINDOW_PER_JOB } from '../../src/batch/in-order.js';
import type { ConversionPool } from '../../src/batch/in-order.js';
import type { Outcome, Payload, SourceRecord } from '../../src/io/record.js';
import type { SourceItem } from '../../src/io/sources/index.js';
import { isFailure } from '../../src/io/sources/index.js';
import { WorkerPool } from '../../src/workers/pool.js';
import { envelope } from './fixtures.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

let single: WorkerPool | undefined;
/** One worker, shared by the tests that need no other setting (each worker loads the engine once). */
function poolOfOne(): WorkerPool {
  single ??= realPool(1);
  return single;
}

function realPool(size: number, maxInputBytes?: number): WorkerPool {
  const pool = new WorkerPool(size, { allPages: false, ...(maxInputBytes === undefined ? {} : { maxInputBytes }) });
  pools.push(pool);
  return pool;
}

function record(position: number, payload: Payload): SourceRecord {
  return { source: 'in.ndjson', position, wholeFile: false, payload };
}

function envelopeRecord(position: number): SourceRecord {
  return record(position, { kind: 'json', bytes: encoder.encode(JSON.stringify(envelope(`Title ${position}`, position))) });
}

/** The items, counting what the loop holds: pulled from the reader and not yet settled. */
class Watched {
  pulled = 0;
  settled = 0;
  closed = false;
  /** The most records, and payload bytes, held at once (each counted when the loop pulls it). */
  maxRecords = 0;
  maxBytes = 0;
  private bytes = new Map<SourceItem, number>();
  readonly order: { position: number; outcome: Outcome }[] = [];

  constructor(private readonly items: SourceItem[]) {}

  async *read(): AsyncGenerator<SourceItem> {
    try {
      for (const item of this.items) {
        this.pulled += 1;
        this.bytes.set(item, isFailure(item) ? 0 : item.payload.bytes.length);
        this.maxRecords = Math.max(this.maxRecords, this.pulled - this.settled);
        this.maxBytes = Math.max(this.maxBytes, [...this.bytes.values()].reduce((a, b) => a + b, 0));
        yield item;
      }
    } finally {
      this.closed = true;
    }
  }

  settle = async (item: SourceItem, outcome: Outcome): Promise<void> => {
    this.settled += 1;
    this.bytes.delete(item);
    this.order.push({ position: item.position, outcome });
  };
}

function nameOf(outcome: Outcome): string | undefined {
  return outcome.status === 'ok' ? (JSON.parse(decoder.decode(outcome.json)) as { name?: string }).name : undefined;
}

describe('convertInOrder', { timeout: 60_000 }, () => {
  it('settles in input order when later records finish first', async () => {
    // Every record is answered only once all five are out, the last first, each answer given a
    // turn of the event loop before the next: a loop that settled what finished first would take it.
    const waiting: { payload: Payload; resolve: (o: Outcome) => void }[] = [];
    const finished: number[] = [];
    const answerLastFirst = async (): Promise<void> => {
      for (const w of waiting.reverse()) {
        const position = Number(decoder.decode(w.payload.bytes));
        finished.push(position);
        w.resolve({ status: 'ok', json: encoder.encode(JSON.stringify({ name: `record ${position}` })) });
        await new Promise((next) => setImmediate(next));
      }
    };
    const pool: ConversionPool = {
      size: 1,
      run: (payload) =>
        new Promise<Outcome>((resolve) => {
          waiting.push({ payload, resolve });
          if (waiting.length === 5) void answerLastFirst();
        }),
    };
    const items = [1, 2, 3, 4, 5].map((n) => record(n, { kind: 'json', bytes: encoder.encode(String(n)) }));
    const watched = new Watched(items);
    await convertInOrder(watched.read(), pool, watched.settle);
    expect(finished, 'the pool finished the records last first').toEqual([5, 4, 3, 2, 1]);
    expect(watched.order.map((o) => o.position)).toEqual([1, 2, 3, 4, 5]);
    expect(watched.order.map((o) => nameOf(o.outcome)), 'each record with its own outcome').toEqual([1, 2, 3, 4, 5].map((n) => `record ${n}`));
  });

  it('on the real pool: input order, unreadable inputs settled in place without a worker, at most size × 8 records held', async () => {
    const pool = poolOfOne();
    const sent: Payload[] = [];
    const counting: ConversionPool = {
      size: pool.size,
      run: (payload) => {
        sent.push(payload);
        return pool.run(payload);
      },
    };
    const items: SourceItem[] = [];
    for (let i = 1; i <= 30; i++) items.push(envelopeRecord(i));
    items[9] = { source: 'gone.html', position: 0, code: 'DANGLING_SYMLINK', error: 'dangling symbolic link' };
    items[19] = record(20, { kind: 'json', bytes: encoder.encode('{not json') });
    const watched = new Watched(items);

    await convertInOrder(watched.read(), counting, watched.settle);

    expect(watched.order.map((o) => o.position)).toEqual(items.map((item) => item.position));
    expect(sent.length, 'the unreadable input never reached the pool').toBe(29);
    expect(watched.order[9]!.outcome).toEqual({ status: 'failed', code: 'DANGLING_SYMLINK', message: 'dangling symbolic link' });
    expect(watched.order[19]!.outcome).toMatchObject({ status: 'failed', code: 'MALFORMED_JSON' });
    const names = watched.order.map((o) => nameOf(o.outcome));
    expect(names.filter((n) => n !== undefined)).toEqual(items.filter((_, i) => i !== 9 && i !== 19).map((item) => `Title ${item.position}`));
    // The window fills up (the workers are fed ahead) and never beyond its size.
    expect(watched.maxRecords).toBe(1 * WINDOW_PER_JOB);
    expect(watched.closed).toBe(true);
  });

  it('on the real pool: payload bytes bound the window before the record count does', async () => {
    // 2 workers allow 16 records; 20 MiB records: three fit in 64 MiB, a fourth puts the window
    // over it, and the head is settled before anything more is read.
    const pool = realPool(2, 1024 * 1024);
    const size = 20 * 1024 * 1024;
    expect(3 * size).toBeLessThanOrEqual(WINDOW_BYTES);
    expect(4 * size).toBeGreaterThan(WINDOW_BYTES);
    const items = Array.from({ length: 8 }, (_, i) => record(i + 1, { kind: 'html', bytes: new Uint8Array(size).fill(0x20) }));
    const watched = new Watched(items);

    await convertInOrder(watched.read(), pool, watched.settle);

    expect(watched.order.map((o) => o.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(watched.order.every((o) => o.outcome.status === 'failed' && o.outcome.code === 'INPUT_TOO_LARGE')).toBe(true);
    expect(watched.maxRecords).toBe(4);
    expect(watched.maxBytes).toBe(4 * size);
    // Settled, each record's bytes are freed at once (src/io/release.ts), not at a later collection.
    expect(items.map((item) => (isFailure(item) ? -1 : item.payload.bytes.byteLength))).toEqual(items.map(() => 0));
  });

  it('a settle that throws stops the loop and closes the reader; nothing is settled after it', async () => {
    const pool = poolOfOne();
    const items = Array.from({ length: 40 }, (_, i) => envelopeRecord(i + 1));
    const watched = new Watched(items);
    const settle = async (item: SourceItem, outcome: Outcome): Promise<void> => {
      if (item.position === 3) throw new Error('disk full');
      await watched.settle(item, outcome);
    };

    await expect(convertInOrder(watched.read(), pool, settle)).rejects.toThrow('disk full');

    expect(watched.order.map((o) => o.position)).toEqual([1, 2]);
    expect(watched.closed, 'the reader was closed').toBe(true);
    expect(watched.pulled, 'reading stopped where the window stood').toBe(WINDOW_PER_JOB + 2);
  });

  it('nothing to read: nothing settled', async () => {
    const watched = new Watched([]);
    await convertInOrder(watched.read(), poolOfOne(), watched.settle);
    expect(watched.order).toEqual([]);
  });
});
