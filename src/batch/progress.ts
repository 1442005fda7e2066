/**
 * Progress on stderr. On a terminal: one line redrawn in place (records, records/s, MB/s, errors,
 * percentage and ETA when the input size is known). Otherwise: a plain line every `intervalMs`.
 * `quiet` silences both. The final summary line is printed regardless.
 */
export interface ProgressCounts {
  converted: number;
  failed: number;
  skipped: number;
  /** Raw input bytes read (compressed bytes for compressed inputs). */
  inputBytes: number;
}

export interface ProgressOptions {
  quiet: boolean;
  isTTY: boolean;
  intervalMs: number;
  write: (text: string) => void;
}

export class Progress {
  private readonly started = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;
  /** Total input bytes, once known (directories are measured in the background). */
  totalBytes: number | undefined;
  /** Records counted before this process started (a resumed run): not part of its rate. */
  resumedRecords = 0;

  constructor(
    private readonly counts: ProgressCounts,
    private readonly options: ProgressOptions,
  ) {}

  start(): void {
    if (this.options.quiet) return;
    const every = this.options.isTTY ? 250 : this.options.intervalMs;
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  /** Prints a line (a failure report) without tearing the progress bar. */
  log(line: string): void {
    this.clear();
    this.options.write(`${line}\n`);
    if (this.drawn) this.draw();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  summary(output: string, interrupted: boolean): string {
    const seconds = (performance.now() - this.started) / 1000;
    const { converted, failed, skipped, inputBytes } = this.counts;
    const rate = (converted + failed + skipped - this.resumedRecords) / Math.max(seconds, 1e-3);
    const mbps = inputBytes / 1e6 / Math.max(seconds, 1e-3);
    const verb = interrupted ? 'interrupted after' : 'converted';
    return (
      `wikistruct convert: ${verb} ${fmt(converted)} records, ${fmt(failed)} failed, ${fmt(skipped)} skipped` +
      ` in ${seconds.toFixed(1)} s (${fmt(Math.round(rate))} records/s, ${mbps.toFixed(1)} MB/s) → ${output}`
    );
  }

  line(): string {
    const seconds = (performance.now() - this.started) / 1000;
    const { converted, failed, skipped, inputBytes } = this.counts;
    const records = converted + failed + skipped;
    const rate = (records - this.resumedRecords) / Math.max(seconds, 1e-3);
    const mbps = inputBytes / 1e6 / Math.max(seconds, 1e-3);
    let text = `${fmt(records)} records | ${fmt(Math.round(rate))} rec/s | ${mbps.toFixed(1)} MB/s | ${fmt(failed)} errors`;
    if (this.totalBytes !== undefined && this.totalBytes > 0) {
      const done = Math.min(1, inputBytes / this.totalBytes);
      text += ` | ${(done * 100).toFixed(1)}%`;
      if (done > 0.001 && done < 1) text += ` | ETA ${duration((seconds * (1 - done)) / done)}`;
    }
    return text;
  }

  private tick(): void {
    if (this.options.isTTY) this.draw();
    else this.options.write(`wikistruct convert: ${this.line()}\n`);
  }

  private draw(): void {
    const columns = process.stderr.columns ?? 100;
    const text = this.line();
    const width = Math.max(10, Math.min(30, columns - text.length - 4));
    const fraction = this.totalBytes !== undefined && this.totalBytes > 0 ? Math.min(1, this.counts.inputBytes / this.totalBytes) : undefined;
    const bar = fraction === undefined ? '' : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '.')}] `;
    this.options.write(`\r\u001b[2K${bar}${text}`);
    this.drawn = true;
  }

  private clear(): void {
    if (this.options.isTTY && this.drawn) this.options.write('\r\u001b[2K');
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
