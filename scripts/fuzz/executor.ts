/**
 * Where inputs run. In-process for the test suite (deterministic, no threads); in a worker thread
 * for the command, which bounds each input's time (`timeoutMs`) and heap: a worker that overruns
 * is terminated and replaced, and the input is reported as a timeout or a crash.
 */
import { Worker } from 'node:worker_threads';
import type { Outcome } from './examine.js';
import { examine } from './examine.js';
import type { FuzzInput } from './inputs.js';
import type { Task } from './worker.js';

export interface Executor {
  /** `budgetMs`: what this input may take by its size; an executor that bounds time allows at least that. */
  run(input: FuzzInput, budgetMs?: number): Promise<Outcome>;
  close(): Promise<void>;
}

export const inProcess: Executor = {
  run: (input) => Promise.resolve(examine(input.target, input.text)),
  close: () => Promise.resolve(),
};

/**
 * tsx's loader hooks do not reach worker threads on Node 20, so a TypeScript worker registers
 * them itself before importing its entry.
 */
function workerUrl(): URL {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return entry;
  const boot = `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

interface Pending {
  settle: (outcome: Outcome) => void;
  started: number;
}

export class WorkerExecutor implements Executor {
  private worker: Worker | undefined;
  private pending: Pending | undefined;

  constructor(
    /** The least time an input gets; large inputs get what the fuzzer budgets for their size. */
    private readonly timeoutMs: number,
    private readonly heapMb = 1024,
  ) {}

  run(input: FuzzInput, budgetMs = 0): Promise<Outcome> {
    const worker = (this.worker ??= this.spawn());
    const limit = Math.max(this.timeoutMs, Math.ceil(budgetMs));
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        this.fail({ kind: 'timeout', ms: limit, message: `no result within ${limit} ms (--timeout-ms, or more for a large input)` });
      }, limit);
      this.pending = {
        started: Date.now(),
        settle: (outcome) => {
          clearTimeout(timer);
          this.pending = undefined;
          resolve(outcome);
        },
      };
      const task: Task = { target: input.target, text: input.text };
      worker.postMessage(task);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    worker.on('message', (outcome: Outcome) => this.pending?.settle(outcome));
    worker.on('error', (error: Error & { code?: string }) => {
      const message = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `worker ran out of memory (heap ${this.heapMb} MB)` : `worker crashed: ${error.message}`;
      this.fail({ kind: 'crash', ms: this.elapsed(), message });
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.fail({ kind: 'crash', ms: this.elapsed(), message: `worker exited with code ${code}` });
    });
    return worker;
  }

  private elapsed(): number {
    return this.pending === undefined ? 0 : Date.now() - this.pending.started;
  }

  /** Settles the running input with `outcome` and retires its worker; the next input gets a new one. */
  private fail(outcome: Outcome): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.pending?.settle(outcome);
  }
}
