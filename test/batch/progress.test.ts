/** The progress line, on a fake clock: redraws and rates are exact, and nothing waits. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Progress } from '../../src/batch/progress.js';

// Progress reads performance.now() and redraws from setInterval: both faked, advanced by hand.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] }));
afterEach(() => void vi.useRealTimers());

describe('Progress', () => {
  it('on a terminal: redraws one line in place with a bar, percentage and ETA; failure lines do not tear it', () => {
    const out: string[] = [];
    const counts = { converted: 50, failed: 1, skipped: 0, inputBytes: 5_000_000 };
    const progress = new Progress(counts, { quiet: false, isTTY: true, intervalMs: 10_000, write: (t) => void out.push(t) });
    progress.totalBytes = 10_000_000;
    progress.start();
    vi.advanceTimersByTime(600);
    progress.log('wikistruct: a.html: input is not HTML');
    progress.stop();
    const draws = out.filter((t) => t.startsWith('\r\u001b[2K['));
    expect(draws.length, 'redrawn every 250 ms on a terminal, whatever intervalMs says, and after the failure line').toBe(3);
    // At 250 ms: 51 records in 0.25 s, 5 MB of 10 read, as long again to go.
    expect(draws[0], 'bar, counts, rate, percentage, ETA').toMatch(/^\r\u001b\[2K\[#+\.+\] 51 records \| 204 rec\/s \| 20\.0 MB\/s \| 1 errors \| 50\.0% \| ETA 0s$/);
    expect(draws[1], 'the rate over the time so far').toContain('| 102 rec/s | 10.0 MB/s |');
    const logAt = out.indexOf('wikistruct: a.html: input is not HTML\n');
    expect(out[logAt - 1], 'line cleared before the failure line').toBe('\r\u001b[2K');
    expect(out[logAt + 1]?.startsWith('\r\u001b[2K['), 'bar redrawn after it').toBe(true);
    expect(out.at(-1), 'stop clears the bar').toBe('\r\u001b[2K');
  });

  it('not on a terminal: a plain line every intervalMs', () => {
    const out: string[] = [];
    const progress = new Progress({ converted: 10, failed: 0, skipped: 0, inputBytes: 0 }, { quiet: false, isTTY: false, intervalMs: 10_000, write: (t) => void out.push(t) });
    progress.start();
    vi.advanceTimersByTime(25_000);
    progress.stop();
    expect(out, 'two lines in 25 s, no control characters').toEqual([
      'wikistruct convert: 10 records | 1 rec/s | 0.0 MB/s | 0 errors\n',
      'wikistruct convert: 10 records | 1 rec/s | 0.0 MB/s | 0 errors\n',
    ]);
  });

  it('--quiet: nothing until the summary', () => {
    const out: string[] = [];
    const progress = new Progress({ converted: 1, failed: 0, skipped: 0, inputBytes: 1 }, { quiet: true, isTTY: true, intervalMs: 1, write: (t) => void out.push(t) });
    progress.start();
    vi.advanceTimersByTime(300);
    progress.stop();
    expect(out, 'no output').toEqual([]);
    expect(progress.summary('out.ndjson', false), 'summary').toBe('wikistruct convert: converted 1 records, 0 failed, 0 skipped in 0.3 s (3 records/s, 0.0 MB/s) → out.ndjson');
  });
});
