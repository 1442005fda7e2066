import type { Timer } from '../../../src/service/snapshots/scheduler.js';
import type { ManualClock } from './harness.js';

/**
 * A Timer on a ManualClock: callbacks run when a test moves the clock past their time
 * (`advance`), never by themselves, so a test decides when a scheduled build happens.
 */
export class ManualTimer implements Timer {
  private next = 0;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  constructor(private readonly clock: ManualClock) {}

  set(callback: () => void, ms: number): unknown {
    const id = ++this.next;
    this.pending.set(id, { at: this.clock.now().getTime() + ms, callback });
    return id;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Timers waiting. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Moves the clock by `ms` and runs every callback due by then, earliest first. */
  advance(ms: number): void {
    this.clock.advance(ms);
    const now = this.clock.now().getTime();
    const due = [...this.pending].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
    for (const [id, t] of due) {
      this.pending.delete(id);
      t.callback();
    }
  }
}
