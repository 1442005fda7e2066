import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for: it begins on the next turn of the event loop,
 * after the reply has been handed to the socket, so nothing it does (a database write, an SMTP
 * round trip) can show in the reply's timing. Failures are logged, never thrown; `drain` lets
 * shutdown (and tests) wait for everything started so far.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, task: () => Promise<void>): void {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error }, `${what} failed`));
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }

  /** Resolves when every task started so far, and any task those started, has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
