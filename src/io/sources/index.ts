/**
 * All inputs of a run as one ordered stream of items: a record to convert, or an input that could
 * not be read (a missing file, a corrupt archive). A broken input never stops the others.
 */
import { stat } from 'node:fs/promises';
import type { SourceRecord } from '../record.js';
import { detectInput } from './detect.js';
import type { InputKind } from './detect.js';
import { readFileRecords } from './readers.js';
import type { ReaderContext } from './readers.js';
import { walkInputFiles } from './walk.js';

export interface SourceFailure {
  source: string;
  position: number;
  error: string;
}

export type SourceItem = SourceRecord | SourceFailure;

export function isFailure(item: SourceItem): item is SourceFailure {
  return 'error' in item;
}

export interface ReadOptions extends ReaderContext {
  from?: InputKind;
  /** Paths never read as inputs (the run's own outputs, when they sit inside an input directory). */
  exclude: ReadonlySet<string>;
}

export async function* readInputs(inputs: readonly string[], options: ReadOptions): AsyncGenerator<SourceItem> {
  for (const input of inputs) {
    let isDir: boolean;
    try {
      isDir = (await stat(input)).isDirectory();
    } catch (error) {
      yield { source: input, position: 0, error: reason(error) };
      continue;
    }
    if (isDir) {
      for await (const file of walkInputFiles(input, options.exclude)) yield* readOne(file, options);
    } else {
      yield* readOne(input, options);
    }
  }
}

async function* readOne(path: string, options: ReadOptions): AsyncGenerator<SourceItem> {
  let position = 0;
  try {
    const { kind, compression } = await detectInput(path, options.from);
    for await (const record of readFileRecords(path, kind, compression, options)) {
      position = record.position;
      yield record;
    }
  } catch (error) {
    yield { source: path, position: position + 1, error: `cannot read input: ${reason(error)}` };
  }
}

/** Total bytes of the inputs when cheaply knowable (directories are walked once more in the background). */
export async function totalInputBytes(inputs: readonly string[], exclude: ReadonlySet<string>): Promise<number> {
  let total = 0;
  for (const input of inputs) {
    try {
      const info = await stat(input);
      if (!info.isDirectory()) {
        total += info.size;
        continue;
      }
      for await (const file of walkInputFiles(input, exclude)) total += (await stat(file)).size;
    } catch {
      // An unreadable input is reported by the reader; it adds nothing to the total.
    }
  }
  return total;
}

/** A short reason for a failed file operation: the errno in words, else the message. */
export function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES') return 'permission denied';
    return error.message;
  }
  return String(error);
}
