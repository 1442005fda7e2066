/**
 * A fixed pool of worker threads converting records. `run` resolves with each record's outcome;
 * the caller bounds how many runs are outstanding (backpressure) and keeps input order.
 * A worker that dies (out of memory) fails only the record it was converting: it is replaced, and
 * the records queued behind it are sent again.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConvertOptions } from './convert-record.js';
import type { Outcome, Payload } from '../io/record.js';
import { owned, release } from '../io/release.js';

export interface TaskMessage {
  seq: number;
  payload: Payload;
}

export interface ResultMessage {
  seq: number;
  outcome: Outcome;
}

interface Pending {
  resolve: (outcome: Outcome) => void;
  /**
   * Until the record is sent; then kept only while it waits in its worker behind another (it was
   * sent as a copy), so that it can be sent again if the one before it kills the worker. Once the
   * worker starts on it nothing would resend it: the original is freed (io/release.ts).
   */
  payload: Payload | undefined;
}

interface Slot {
  worker: Worker;
  inflight: Map<number, Pending>;
}

/** Records queued per worker: two keeps a worker busy while its last result travels back. */
const PER_WORKER = 2;

/**
 * Worker heap limits (default cap; `--worker-heap` changes it). V8 sizes heaps from the machine's memory and grows them lazily: two
 * uncapped workers reached 420-455 MB RSS on the corpus. An explicit old-generation cap makes
 * them collect sooner: 290 MB measured, for the same CPU time. A record that needs more than the
 * cap fails alone; its worker is replaced.
 */
export const DEFAULT_WORKER_HEAP_MB = 512;

/** The sizes `--worker-heap` and `--worker-young` accept, in MB: the CLI, a run's and a shard's options check the same. */
export const WORKER_HEAP_MB = { min: 8, max: 65536 } as const;
export const WORKER_YOUNG_MB = { min: 3, max: 1024 } as const;

/**
 * Young generation of each worker of `convert` (`--worker-young` changes it). V8 makes it three
 * semi-spaces (two plus the new large-object space) and rounds a semi-space up to a power of two:
 * 48 → 16 MB semi-spaces (V8's default), 96 → 32 MB, anything in (96, 192] → 64 MB. A young
 * collection costs what survives it, and in a worker that is the page being converted. Since the
 * page's parse tree lives outside the JavaScript heap (src/engine/tree-store.ts), what survives is
 * little, and the 48 MB takes no more CPU time than the 96 MB did when the tree was made of objects
 * that every collection copied: on the 10× corpus, `--jobs 2` peaks at 337-353 MB for 8-11% less
 * CPU time than before (docs/batch.md point (12)). The same size for every machine: the 96 MB that
 * larger machines took until then bought speed the tree no longer costs.
 */
export const BATCH_YOUNG_GENERATION_MB = 48;

/** How large a pool's workers may grow, and how many start at once. */
export interface PoolLimits {
  /** Old-generation cap of each worker's heap (`--worker-heap`); default DEFAULT_WORKER_HEAP_MB. */
  heapMb?: number | undefined;
  /** Young generation of each worker; default BATCH_YOUNG_GENERATION_MB (the service chooses its own). */
  youngGenerationMb?: number | undefined;
  /**
   * Workers started at once (0 or more); the others start when every running one is busy.
   * Default: all of them.
   */
  initial?: number | undefined;
}

/**
 * The compiled worker module. Under vitest/tsx this module runs from TypeScript sources, but
 * workers must run compiled JS. The service checks it exists before starting a pool (service/engine-client.ts).
 */
export function workerEntry(): URL {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../dist/src/workers/worker.js', here);
  return new URL('./worker.js', here);
}

/** Worker threads started by every pool of this process so far (the service's first start starts none). */
let threadsStarted = 0;
export function workerThreadsStarted(): number {
  return threadsStarted;
}

export function defaultJobs(): number {
  return availableParallelism();
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: { seq: number; pending: Pending }[] = [];
  private nextSeq = 0;
  private closed = false;

  private readonly heapMb: number;
  private readonly youngGenerationMb: number;

  constructor(
    readonly size: number,
    private readonly options: ConvertOptions,
    limits: PoolLimits = {},
  ) {
    this.heapMb = limits.heapMb ?? DEFAULT_WORKER_HEAP_MB;
    this.youngGenerationMb = limits.youngGenerationMb ?? BATCH_YOUNG_GENERATION_MB;
    for (let i = 0; i < Math.min(size, Math.max(0, limits.initial ?? size)); i++) this.slots.push(this.spawn());
  }

  /** Workers running now (at most `size`). */
  get started(): number {
    return this.slots.length;
  }

  run(payload: Payload): Promise<Outcome> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    const seq = this.nextSeq++;
    return new Promise<Outcome>((resolve) => {
      this.queue.push({ seq, pending: { resolve, payload } });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    threadsStarted += 1;
    const worker = new Worker(workerEntry(), {
      workerData: { options: this.options },
      resourceLimits: { maxYoungGenerationSizeMb: this.youngGenerationMb, maxOldGenerationSizeMb: this.heapMb },
    });
    const slot: Slot = { worker, inflight: new Map() };
    worker.on('message', (message: ResultMessage) => {
      const pending = slot.inflight.get(message.seq);
      if (pending === undefined) return;
      slot.inflight.delete(message.seq);
      // The worker is now on the next record it holds: that one's kept original is nobody's.
      const next = slot.inflight.values().next();
      if (!next.done && next.value.payload !== undefined) {
        release(next.value.payload.bytes);
        next.value.payload = undefined;
      }
      pending.resolve(message.outcome);
      this.dispatch();
    });
    const fail = (reason: string, code = 'INTERNAL'): void => {
      if (this.closed) return;
      // A worker converts its records in the order they were sent (the map's order): the first
      // was running and is the culprit; the ones queued behind it go back to the front of the
      // queue, so that the outcome of every record is the same however records were spread over workers.
      const inflight = [...slot.inflight.entries()];
      slot.inflight.clear();
      const culprit = inflight.shift();
      culprit?.[1].resolve({ status: 'failed', code, message: `worker ${reason}` });
      // Each one still waiting in the dead worker was sent as a copy and kept its original.
      this.queue.unshift(...inflight.map(([seq, pending]) => ({ seq, pending })));
      const index = this.slots.indexOf(slot);
      if (index !== -1) this.slots[index] = this.spawn();
      this.dispatch();
    };
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        fail(`ran out of memory (heap cap ${this.heapMb} MB, --worker-heap)`, 'OUT_OF_MEMORY');
      } else {
        fail(`crashed: ${error.message}`);
      }
    });
    worker.on('exit', (code) => fail(`exited with code ${code}`));
    return slot;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      if (this.slots.length < this.size && this.slots.every((slot) => slot.inflight.size > 0)) this.slots.push(this.spawn());
      let best: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.inflight.size < PER_WORKER && (best === undefined || slot.inflight.size < best.inflight.size)) best = slot;
      }
      if (best === undefined) return;
      const task = this.queue.shift()!;
      const original = task.pending.payload!;
      // To an idle worker the record itself is transferred: if it kills the worker it fails, and
      // nothing is resent. Behind another record a copy goes (a memcpy, ~0.1 ms per MB) and the
      // original stays for a retry until the worker starts on it. So the main thread holds no
      // record a worker has (issue 26: one fewer copy of each record in the process).
      const queued = best.inflight.size > 0;
      const payload: Payload = queued || !owned(original.bytes) ? { ...original, bytes: new Uint8Array(original.bytes) } : original;
      if (!queued) task.pending.payload = undefined;
      best.inflight.set(task.seq, task.pending);
      const message: TaskMessage = { seq: task.seq, payload };
      best.worker.postMessage(message, [payload.bytes.buffer as ArrayBuffer]);
    }
  }
}
