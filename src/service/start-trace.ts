/**
 * Where the time of a `wikistruct serve` start goes: with `WIKISTRUCT_START_TRACE=1` each step of
 * the start writes one line to standard error: the milliseconds since the process started
 * (performance.now(), node's own start included), the CPU milliseconds the process has used (all
 * its threads) and, on Linux, those of its main thread, and the step's name. Without the variable
 * a mark costs one comparison. bench/memory.ts `--trace` prints them for each start it measures.
 */
import { readFileSync } from 'node:fs';

const tracing = process.env['WIKISTRUCT_START_TRACE'] === '1';

/** Notes that a step of the start is done (with WIKISTRUCT_START_TRACE=1). */
export function startMark(step: string): void {
  if (!tracing) return;
  const cpu = process.cpuUsage();
  const ms = (x: number): string => x.toFixed(0).padStart(5);
  process.stderr.write(`start-trace ${ms(performance.now())} ms, cpu ${ms((cpu.user + cpu.system) / 1000)} ms, main ${ms(mainThreadCpuMs())} ms: ${step}\n`);
}

/** The main thread's CPU time (Linux, in 10 ms ticks), else NaN. */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
