/**
 * All inputs of a run as one ordered stream of items: a record to convert, or an input that could
 * not be read (a missing file, a dangling link, a corrupt archive, a cut download, an input that
 * holds nothing). A broken input never stops the others.
 */
import { stat } from 'node:fs/promises';
import type { Outcome, SourceRecord } from '../record.js';
import { detectInput } from './detect.js';
import type { InputKind } from './detect.js';
import { empty, inputErrorOf } from './input-error.js';
import type { InputError } from './input-error.js';
import { readFileRecords } from './readers.js';
import type { ReaderContext } from './readers.js';
import { listInputFiles } from './walk.js';

export { reason } from './input-error.js';

export interface SourceFailure {
  source: string;
  /** The record the failure stands for: 0 when the input could not be opened. */
  position: number;
  /** An `InputErrorCode`: TRUNCATED_INPUT, EMPTY_INPUT, DANGLING_SYMLINK, SYMLINK_LOOP, UNREADABLE. */
  code: string;
  error: string;
  /** The title of the record, when the reader got that far (a cut dump page). */
  name?: string;
}

export type SourceItem = SourceRecord | SourceFailure;

export function isFailure(item: SourceItem): item is SourceFailure {
  return 'error' in item;
}

/** The outcome a failed input stands for, in the stream of record outcomes. */
export function failedOutcome(item: SourceFailure): Extract<Outcome, { status: 'failed' }> {
  return { status: 'failed', code: item.code, message: item.error, ...(item.name === undefined ? {} : { name: item.name }) };
}

export function sourceFailure(source: string, position: number, error: InputError): SourceFailure {
  const failure: SourceFailure = { source, position: error.at.position ?? position, code: error.code, error: error.message };
  if (error.at.name !== undefined) failure.name = error.at.name;
  return failure;
}

export interface ReadOptions extends ReaderContext {
  from?: InputKind;
  /** Paths never read as inputs (the run's own outputs, when they sit inside an input directory). */
  exclude: ReadonlySet<string>;
}

export async function* readInputs(inputs: readonly string[], options: ReadOptions): AsyncGenerator<SourceItem> {
  for await (const file of listInputFiles(inputs, options.exclude)) {
    if (file.error !== undefined) yield sourceFailure(file.path, 0, file.error);
    else yield* readOne(file.path, options);
  }
}

async function* readOne(path: string, options: ReadOptions): AsyncGenerator<SourceItem> {
  let position = 0;
  let records = 0;
  try {
    const { kind, compression } = await detectInput(path, options.from);
    for await (const record of readFileRecords(path, kind, compression, options)) {
      position = record.position;
      records += 1;
      yield record;
    }
    // The readers that can tell empty from cut (XML dumps, whole files) say so themselves.
    if (records === 0) {
      const nothing = kind === 'snapshot' ? 'the archive holds no NDJSON record' : 'no record, only blank lines';
      throw empty((await stat(path)).size === 0 ? 'the file is 0 bytes' : nothing);
    }
  } catch (error) {
    yield sourceFailure(path, position + 1, inputErrorOf(error));
  }
}

/** Total bytes of the inputs when cheaply knowable (directories are walked once more in the background). */
export async function totalInputBytes(inputs: readonly string[], exclude: ReadonlySet<string>): Promise<number> {
  let total = 0;
  try {
    for await (const file of listInputFiles(inputs, exclude)) {
      if (file.error === undefined) total += await stat(file.path).then((info) => info.size, () => 0);
    }
  } catch {
    // A directory that cannot be listed is reported by the reader; it adds nothing to the total.
  }
  return total;
}
