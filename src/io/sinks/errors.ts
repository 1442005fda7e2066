/**
 * The errors file: one JSON line per failed record, `{ name, source, position, code, message }`.
 * Always beside a file output (`<output>.errors.ndjson`, or `--errors FILE`); for `-o -` without
 * `--errors` the failures are only reported on stderr.
 */
import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { FileAppender } from './file-appender.js';

export const ErrorLineSchema = z.object({
  name: z.string(),
  source: z.string(),
  position: z.number().int().nonnegative(),
  code: z.string(),
  message: z.string(),
});
export type ErrorLine = z.infer<typeof ErrorLineSchema>;

const encoder = new TextEncoder();

export class ErrorsFile {

  private constructor(
    private readonly file: FileAppender,
    readonly path: string,
  ) {}

  static async open(path: string, resumeAt?: number): Promise<ErrorsFile> {
    return new ErrorsFile(await FileAppender.open(path, resumeAt), path);
  }

  async write(line: ErrorLine): Promise<void> {
    await this.file.write(encoder.encode(`${JSON.stringify(line)}\n`));
  }

  get length(): number {
    return this.file.length;
  }

  async sync(): Promise<number> {
    await this.file.sync();
    return this.file.length;
  }

  /** An errors file of a run without errors would only mislead: it is removed. */
  async close(): Promise<void> {
    await this.file.close();
    if (this.file.length === 0) await unlink(this.path).catch(() => undefined);
  }
}
