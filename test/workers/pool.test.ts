/**
 * What the worker pool holds of a record (issue 26, convert's memory): a record sent to an idle
 * worker is transferred, so the main thread keeps no copy of it; a view into a buffer others
 * share is copied and left intact; records of both doors queue behind one another in one worker.
 * Runs the built worker (dist/src/workers/worker.js).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/workers/pool.js';

const encoder = new TextEncoder();
const PAGE = '<html><head><title>T</title></head><body><p>Text of the page.</p></body></html>';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('the worker pool', () => {
  it('transfers a record to an idle worker rather than keeping a copy of it', async () => {
    pool = new WorkerPool(1, { allPages: false });
    const bytes = encoder.encode(PAGE);
    const outcome = pool.run({ kind: 'html', bytes });
    expect(bytes.byteLength, 'the caller\'s buffer went to the worker').toBe(0);
    expect((await outcome).status).toBe('ok');
  });

  it('copies a view into a buffer others share, and leaves the buffer alone', async () => {
    pool = new WorkerPool(1, { allPages: false });
    const page = encoder.encode(PAGE);
    const shared = new Uint8Array(page.length + 10);
    shared.set(page);
    const view = shared.subarray(0, page.length);
    const outcome = pool.run({ kind: 'html', bytes: view });
    expect(view.byteLength, 'the view is intact').toBe(page.length);
    expect((await outcome).status).toBe('ok');
  });

  it('converts records queued behind one another, each to its own outcome', async () => {
    pool = new WorkerPool(1, { allPages: false });
    const titles = ['One', 'Two', 'Three'];
    const outcomes = await Promise.all(titles.map((t) => pool!.run({ kind: 'html', bytes: encoder.encode(PAGE.replace('>T<', `>${t}<`)) })));
    expect(outcomes.map((o) => (o.status === 'ok' ? (JSON.parse(new TextDecoder().decode(o.json)) as { name?: string }).name : o.status))).toEqual(titles);
  });

  it('converts a wikitext record queued between HTML records', async () => {
    pool = new WorkerPool(1, { allPages: false });
    const outcomes = await Promise.all([
      pool.run({ kind: 'html', bytes: encoder.encode(PAGE) }),
      pool.run({ kind: 'wikitext', bytes: encoder.encode("'''Wiki''' text.\n\n== Section ==\nMore."), meta: { name: 'Wiki' } }),
      pool.run({ kind: 'html', bytes: encoder.encode(PAGE) }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'ok']);
  });
});
