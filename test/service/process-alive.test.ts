/**
 * The check both lock files (the data directory's, a snapshot build's) use to tell a live holder
 * from one that died: real processes, this one and a child that has exited.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../src/service/process-alive.js';

describe('processAlive', () => {
  it('this process and init are alive; a child that has exited (and was reaped) is not', async () => {
    expect(processAlive(process.pid)).toBe(true);
    // pid 1 exists everywhere; not ours unless we are root (EPERM still means alive).
    expect(processAlive(1)).toBe(true);
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await once(child, 'exit');
    expect(processAlive(pid)).toBe(false);
  });

  it('a pid that names no single process (0, negative: process groups; not an integer) is no holder', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN]) expect(processAlive(pid), String(pid)).toBe(false);
  });
});
