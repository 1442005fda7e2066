/**
 * TEST-ONLY hook, off unless its environment variable is set: makes a worker stop mid-shard at a
 * known record, so a test can kill it (SIGKILL) or cut Redis at a deterministic point instead of
 * guessing with timers.
 *
 * WIKISTRUCT_TEST_PAUSE_AFTER_RECORDS=N   the first shard reaching N settled records pauses there
 *                                         (once per process) and says so on stderr
 * WIKISTRUCT_TEST_PAUSE_UNTIL=FILE        ...until FILE exists (without it: forever)
 */
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export type PauseHook = (shard: number, settled: number) => Promise<void>;

export function testPauseHook(writeErr: (text: string) => void, env: NodeJS.ProcessEnv = process.env): PauseHook {
  const after = env['WIKISTRUCT_TEST_PAUSE_AFTER_RECORDS'];
  if (after === undefined || after === '') return () => Promise.resolve();
  const at = Number(after);
  const until = env['WIKISTRUCT_TEST_PAUSE_UNTIL'];
  let used = false;
  return async (shard, settled) => {
    if (used || settled !== at) return;
    used = true;
    writeErr(`wikistruct worker: TEST PAUSE in shard ${shard} after ${settled} records\n`);
    for (;;) {
      if (until !== undefined && (await access(until).then(() => true, () => false))) return;
      await sleep(50);
    }
  };
}
