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
  /** VmRSS now, in MB (0 once the process has gone). */
  rssMb(): number;
  stop(): void;
}

/** Samples `pid` every `everyMs` until stopped; the last sample before the process exits stands. */
export function watchProcess(pid: number, everyMs = 50): ProcessWatch {
  let peakKb = 0;
  let cpuTicks = 0;
  const sample = (): void => {
    try {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      if (kb > peakKb) peakKb = kb;
      // utime + stime (fields 14 and 15), in clock ticks of 1/100 s.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuTicks = Number(fields[11]) + Number(fields[12]);
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
