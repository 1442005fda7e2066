/**
 * The conversion loop of every batch run, single-machine (`convert`) and a queue shard alike:
 * records go to the worker pool as they are read and their outcomes are settled in input order,
 * whatever order the workers finish in.
 *
 * Backpressure: at most `pool.size × 8` records (and 64 MiB of payload) are between the reader and
 * `settle` at any time; the reader is only pulled when there is room, so memory does not grow with
 * the input. A record the reader could not read (a missing file, a cut input) never reaches the
 * pool: its failure is settled at its place among the others.
 *
 * What to read (past a resumed run's records, until Ctrl-C) is the caller's iterable; what to do
 * with each outcome (write, count, checkpoint) is `settle`. A `settle` that throws stops the run:
 * the reader is closed and the outcomes still in the window are dropped.
 *
 * The service's `import` does not use it: it stores each record as soon as its own parse is done
 * (no order to keep, the store orders revisions), through the parser that may run inline.
 */
import type { Outcome } from '../io/record.js';
import { failedOutcome, isFailure } from '../io/sources/index.js';
import type { SourceItem } from '../io/sources/index.js';
import type { WorkerPool } from '../workers/pool.js';
import { release } from '../io/release.js';

/** Records in the window per worker: enough to keep every worker fed while the head is written. */
export const WINDOW_PER_JOB = 8;
/** Payload bytes in the window: a few huge records do not pile up `size × 8` of themselves. */
export const WINDOW_BYTES = 64 * 1024 * 1024;

/** What the loop needs of the pool: its number of workers (the window's size) and `run`. */
export type ConversionPool = Pick<WorkerPool, 'size' | 'run'>;

/** Takes one record's outcome, in input order; the next is not settled before it resolves. */
export type Settle = (item: SourceItem, outcome: Outcome) => Promise<void>;

interface InFlight {
  item: SourceItem;
  outcome: Promise<Outcome>;
  bytes: number;
}

export async function convertInOrder(items: AsyncIterable<SourceItem>, pool: ConversionPool, settle: Settle): Promise<void> {
  const window: InFlight[] = [];
  let windowBytes = 0;
  const limit = pool.size * WINDOW_PER_JOB;
  for await (const item of items) {
    if (isFailure(item)) {
      window.push({ item, outcome: Promise.resolve(failedOutcome(item)), bytes: 0 });
    } else {
      const bytes = item.payload.bytes.length;
      window.push({ item, outcome: pool.run(item.payload), bytes });
      windowBytes += bytes;
    }
    while (window.length >= limit || windowBytes > WINDOW_BYTES) {
      const head = window.shift()!;
      windowBytes -= head.bytes;
      await settleAndRelease(head, settle);
    }
  }
  for (const head of window.splice(0)) await settleAndRelease(head, settle);
}

/** Once settled, the record's bytes are no one's: the pool kept them only to resend them. */
async function settleAndRelease(head: InFlight, settle: Settle): Promise<void> {
  await settle(head.item, await head.outcome);
  if (!isFailure(head.item)) release(head.item.payload.bytes);
}
