/**
 * Frees the main thread's spent record buffers on a byte budget instead of at V8's own pace.
 *
 * The main thread of a batch run does little JavaScript: it reads records, hands them to workers
 * and writes the Articles they send back. Each record passes through it as two ArrayBuffers (its
 * payload, and the Article a worker transferred back), hundreds of kB each, that die once the
 * Article is written. Their memory is outside the JS heap; V8 frees it only when a collection
 * finds their small wrappers dead, and with so little JS allocated it collects when the external
 * memory has grown by its soft limit (64 MB in V8 11) — measured: up to 70 MB of dead buffers
 * waiting on the main thread of `convert --jobs 2` (issue 26). A full collection of this small
 * heap every RELEASE_BYTES of settled records frees them early: 10× corpus, --jobs 2, same run,
 * peak 449 MB against 479 (24 MB budget: 463), CPU 86.4 s against 87.1 (docs/batch.md).
 *
 * Node has no public call that frees a buffer (ArrayBuffer.prototype.transfer arrives in V8 11.4,
 * Node 21): `gc` is exposed for this module only, the way test runners do it, and the flag is
 * reset at once so that no other context (the workers started later) sees a `gc` global.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Settled record bytes (payloads and Articles) between two collections. */
export const RELEASE_BYTES = 8 * 1024 * 1024;

type Collect = (options: { type: 'major' | 'minor'; execution: 'sync' | 'async' }) => void;

let collect: Collect | undefined | null;

function collector(): Collect | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    } catch {
      collect = null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return collect;
}

/** Counts bytes of records whose buffers are now garbage; collects once RELEASE_BYTES have passed. */
export class BufferRelease {
  private spent = 0;

  constructor(private readonly budget = RELEASE_BYTES) {}

  settled(bytes: number): void {
    this.spent += bytes;
    if (this.spent < this.budget) return;
    this.spent = 0;
    collector()?.({ type: 'major', execution: 'sync' });
  }
}
