/**
 * Where converted Articles go. A sink receives each Article's JSON bytes in input order and, at a
 * checkpoint, makes everything received so far durable and reports how to resume after it.
 */
import type { SourceRecord } from '../record.js';

export interface SinkState {
  /** Length of the output file at this point (0 for a directory of files). */
  bytes: number;
  /** Snapshot sink: how many chunk files are complete. */
  chunks: number;
}

export interface Sink {
  /**
   * `json` is handed over: a sink may free it once written (src/io/release.ts frees only a buffer
   * the view covers whole), so the caller must not use it after the call.
   */
  write(json: Uint8Array, record: SourceRecord, name: string | undefined): Promise<void>;
  /** False while a checkpoint would cut a unit in half (the snapshot sink between chunk ends). */
  canCommit(): boolean;
  commit(): Promise<SinkState>;
  /** Finishes the output (last gzip member, tar end blocks) and closes it. */
  close(finished: boolean): Promise<void>;
}

export const NEWLINE = new Uint8Array([10]);
