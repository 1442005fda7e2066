/**
 * Memory and CPU of a child process, read from /proc while it runs (Linux): the peak resident
 * set (VmHWM, worker threads included, as the kernel keeps it), the resident set now (VmRSS) and
 * the CPU it has used. Shared by bench/batch.ts and bench/memory.ts.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

export interface ProcessWatch {
  /** Highest VmHWM seen, in MB. */
  readonly peakMb: number;
  /** Last CPU time read (user + system), in seconds. */
  readonly cpuSeconds: number;
  /**
   * The same, of the main thread alone: on an idle machine a start cannot be ready sooner than
   * its main thread's CPU time, whatever its other threads do beside it.
   */
  readonly mainThreadCpuSeconds: number;
  /** VmRSS now, in MB (0 once the process has gone). */
  rssMb(): number;
  stop(): void;
}

/** Samples `pid` every `everyMs` until stopped; the last sample before the process exits stands. */
export function watchProcess(pid: number, everyMs = 50): ProcessWatch {
  let peakKb = 0;
  let cpuTicks = 0;
  let mainTicks = 0;
  const ticks = (statFile: string): number => {
    // utime + stime (fields 14 and 15), in clock ticks of 1/100 s.
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const sample = (): void => {
    try {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      if (kb > peakKb) peakKb = kb;
      cpuTicks = ticks(`/proc/${pid}/stat`);
      mainTicks = ticks(`/proc/${pid}/task/${pid}/stat`);
    } catch {
      // The process has just exited.
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    get peakMb() {
      return peakKb / 1024;
    },
    get cpuSeconds() {
      return cpuTicks / 100;
    },
    get mainThreadCpuSeconds() {
      return mainTicks / 100;
    },
    rssMb() {
      sample();
      try {
        return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      } catch {
        return 0;
      }
    },
    stop: () => clearInterval(timer),
  };
}

/** The machine's CPU time so far, and the part of it that was idle (from /proc/stat), in clock ticks. */
export function systemIdle(): { idle: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return { idle: 0, total: 0 };
  }
}

/** Limits made by this thread so far: each gets a cgroup of its own. */
let made = 0;

/**
 * A machine of `mb` megabytes, as far as a process can tell: a cgroup of its own with that memory
 * limit (cgroup v2, or v1's memory controller), which `process.constrainedMemory()` reports and the
 * kernel enforces (reclaiming page cache first, killing at the limit). What bench/memory.ts's
 * `--memory-limit` runs each process in, to measure the small machines issue 26 is about on a large
 * one. Needs a writable cgroup hierarchy (root in a container that mounts it read-write);
 * `create` says why when there is none.
 */
export class MemoryLimit {
  private constructor(
    readonly mb: number,
    private readonly dir: string,
    private readonly v2: boolean,
  ) {}

  static create(mb: number): MemoryLimit {
    const bytes = String(mb * 1024 * 1024);
    const name = `wikistruct-bench-${process.pid}-${threadId}-${++made}`;
    const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
    const dir = v2 ? `/sys/fs/cgroup/${name}` : `/sys/fs/cgroup/memory/${name}`;
    try {
      mkdirSync(dir, { recursive: true });
      if (v2) {
        writeFileSync(`${dir}/memory.max`, bytes);
        // No swap: a machine of this size, not one that pages out to look smaller.
        if (existsSync(`${dir}/memory.swap.max`)) writeFileSync(`${dir}/memory.swap.max`, '0');
      } else {
        writeFileSync(`${dir}/memory.limit_in_bytes`, bytes);
      }
    } catch (error) {
      throw new Error(`--memory-limit needs a writable cgroup hierarchy (${v2 ? 'v2' : 'v1 memory controller'} at ${dir}): ${(error as Error).message}`);
    }
    return new MemoryLimit(mb, dir, v2);
  }

  /** `command args…` started inside the cgroup: a shell joins it and then becomes the command (same pid). */
  wrap(command: string, args: readonly string[]): [string, string[]] {
    return ['/bin/sh', ['-c', 'echo $$ > "$0" && exec "$@"', `${this.dir}/cgroup.procs`, command, ...args]];
  }

  /** Processes the kernel has killed in the cgroup for want of memory, so far. */
  pressure(): { oomKills: number } {
    const events = readFileSync(this.v2 ? `${this.dir}/memory.events` : `${this.dir}/memory.oom_control`, 'utf8');
    return { oomKills: Number(/^oom_kill (\d+)/m.exec(events)?.[1] ?? 0) };
  }

  /** Removes the cgroup (its processes must have exited). */
  remove(): void {
    try {
      rmdirSync(this.dir);
    } catch {
      // Still busy or already gone: the kernel frees an empty cgroup's memory either way.
    }
  }
}
