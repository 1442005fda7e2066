/**
 * Memory and CPU of a child process, read from /proc while it runs (Linux): the peak resident
 * set (VmHWM, worker threads included, as the kernel keeps it), the resident set now (VmRSS) and
 * the CPU it has used. Shared by bench/batch.ts and bench/memory.ts.
 */
import { readFileSync } from 'node:fs';

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
