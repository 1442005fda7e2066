import { describe, expect, it } from 'vitest';
import { Progress } from '../../src/batch/progress.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('Progress', () => {
  it('on a terminal: redraws one line in place with a bar, percentage and ETA; failure lines do not tear it', async () => {
    const out: string[] = [];
    const counts = { converted: 50, failed: 1, skipped: 0, inputBytes: 5_000_000 };
    const progress = new Progress(counts, { quiet: false, isTTY: true, intervalMs: 10_000, write: (t) => void out.push(t) });
    progress.totalBytes = 10_000_000;
    progress.start();
    await sleep(600);
    progress.log('wikistruct: a.html: input is not HTML');
    progress.stop();
    const draws = out.filter((t) => t.startsWith('\r\u001b[2K['));
    expect(draws.length, 'redrawn several times').toBeGreaterThan(1);
    expect(draws[0], 'bar, counts, rate, percentage, ETA').toMatch(/^\r\u001b\[2K\[#+\.+\] 51 records \| [\d,]+ rec\/s \| [\d.]+ MB\/s \| 1 errors \| 50\.0% \| ETA \d+s$/);
    const logAt = out.indexOf('wikistruct: a.html: input is not HTML\n');
    expect(out[logAt - 1], 'line cleared before the failure line').toBe('\r\u001b[2K');
    expect(out[logAt + 1]?.startsWith('\r\u001b[2K['), 'bar redrawn after it').toBe(true);
    expect(out.at(-1), 'stop clears the bar').toBe('\r\u001b[2K');
  });

  it('--quiet: nothing until the summary', async () => {
    const out: string[] = [];
    const progress = new Progress({ converted: 1, failed: 0, skipped: 0, inputBytes: 1 }, { quiet: true, isTTY: true, intervalMs: 1, write: (t) => void out.push(t) });
    progress.start();
    await sleep(300);
    progress.stop();
    expect(out, 'no output').toEqual([]);
    expect(progress.summary('out.ndjson', false), 'summary').toMatch(/^wikistruct convert: converted 1 records, 0 failed, 0 skipped in [\d.]+ s/);
  });
});
