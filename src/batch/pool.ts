/**
 * A fixed pool of worker threads converting records. `run` resolves with each record's outcome;
 * the caller bounds how many runs are outstanding (backpressure) and keeps input order.
 * A worker that dies takes only its in-flight records with it: they fail, and it is replaced.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConvertOptions } from './convert-record.js';
import type { Outcome, Payload } from './record.js';

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
}

interface Slot {
  worker: Worker;
  inflight: Map<number, Pending>;
}

/** Records queued per worker: two keeps a worker busy while its last result travels back. */
const PER_WORKER = 2;

/**
 * Worker heap limits. V8 sizes heaps from the machine's memory and grows them lazily: two
 * uncapped workers reached 420-455 MB RSS on the corpus. An explicit old-generation cap makes
 * them collect sooner: 290 MB measured, for the same CPU time (a 16 MB young generation saved
 * another 50 MB but cost ~10% more CPU). A record that needs more than the cap fails alone; its
 * worker is replaced.
 */
const WORKER_HEAP = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 512 };

/** Under vitest/tsx this module runs from TypeScript sources, but workers must run compiled JS. */
function workerEntry(): URL {
  const here = new URL(import.meta.url);
  if (here.pathname.endsWith('.ts')) return new URL('../../dist/src/batch/worker.js', here);
  return new URL('./worker.js', here);
}

export function defaultJobs(): number {
  return availableParallelism();
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: { seq: number; payload: Payload; pending: Pending }[] = [];
  private nextSeq = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly options: ConvertOptions,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  run(payload: Payload): Promise<Outcome> {
    if (this.closed) return Promise.reject(new Error('worker pool is closed'));
    const seq = this.nextSeq++;
    return new Promise<Outcome>((resolve) => {
      this.queue.push({ seq, payload, pending: { resolve } });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(workerEntry(), { workerData: { options: this.options }, resourceLimits: WORKER_HEAP });
    const slot: Slot = { worker, inflight: new Map() };
    worker.on('message', (message: ResultMessage) => {
      const pending = slot.inflight.get(message.seq);
      if (pending === undefined) return;
      slot.inflight.delete(message.seq);
      pending.resolve(message.outcome);
      this.dispatch();
    });
    const fail = (reason: string): void => {
      if (this.closed) return;
      for (const pending of slot.inflight.values()) {
        pending.resolve({ status: 'failed', code: 'INTERNAL', message: `internal error: worker ${reason}` });
      }
      slot.inflight.clear();
      const index = this.slots.indexOf(slot);
      if (index !== -1) this.slots[index] = this.spawn();
      this.dispatch();
    };
    worker.on('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of memory (heap cap ${WORKER_HEAP.maxOldGenerationSizeMb} MB) on this or a record converted beside it` : `crashed: ${error.message}`),
    );
    worker.on('exit', (code) => fail(`exited with code ${code}`));
    return slot;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let best: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.inflight.size < PER_WORKER && (best === undefined || slot.inflight.size < best.inflight.size)) best = slot;
      }
      if (best === undefined) return;
      const task = this.queue.shift()!;
      best.inflight.set(task.seq, task.pending);
      const message: TaskMessage = { seq: task.seq, payload: task.payload };
      best.worker.postMessage(message, [task.payload.bytes.buffer as ArrayBuffer]);
    }
  }
}
