/**
 * `-o x.json`: one Article in one file, the same bytes the directory sink would write for it.
 *
 * The Article is held until the run ends and only then written, so that an input that turns out
 * to hold a second Article (an XML dump or NDJSON file of several pages) is refused before the
 * file exists: a refused or interrupted run leaves no half-true `x.json` behind. There is nothing
 * to checkpoint: the one record is either converted or not.
 */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../usage-error.js';
import type { SourceRecord } from '../record.js';
import type { Sink, SinkState } from './sink.js';

/** What to tell a user whose inputs do not fit in one JSON file (also said by the batch preflight). */
export const SEVERAL_ARTICLES = 'for several Articles use a directory (-o DIR/), FILE.ndjson or -';

export class JsonFileSink implements Sink {
  private article: Uint8Array | undefined;

  constructor(private readonly path: string) {}

  write(json: Uint8Array, record: SourceRecord, _name: string | undefined): Promise<void> {
    if (this.article !== undefined) {
      return Promise.reject(
        new UsageError(`-o ${this.path} holds one Article, but ${record.source} has more (another at record ${record.position}); nothing was written; ${SEVERAL_ARTICLES}`),
      );
    }
    this.article = json;
    return Promise.resolve();
  }

  canCommit(): boolean {
    return false;
  }

  commit(): Promise<SinkState> {
    return Promise.resolve({ bytes: 0, chunks: 0 });
  }

  /** A run whose one record failed writes no file: the errors file says why. */
  async close(finished: boolean): Promise<void> {
    if (!finished || this.article === undefined) return;
    await writeFile(this.path, this.article);
  }
}
