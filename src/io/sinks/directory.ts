/**
 * A directory of `.json` files, one Article each. A record that is a whole input file is named
 * after it (`Foo.html` → `Foo.json`); a record from a multi-record input after its title, or
 * `<input>-<position>` when it has none. Later records with the same name overwrite earlier ones.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { UsageError } from '../usage-error.js';
import type { SourceRecord } from '../record.js';
import type { Sink, SinkState } from './sink.js';

export class DirectorySink implements Sink {
  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<DirectorySink> {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        throw new UsageError(`-o ${dir} is a file, not a directory: name it FILE.ndjson, FILE.ndjson.gz or FILE.tar.gz for a single-file output`);
      }
      throw error;
    }
    return new DirectorySink(dir);
  }

  async write(json: Uint8Array, record: SourceRecord, name: string | undefined): Promise<void> {
    await writeFile(join(this.dir, `${fileStem(record, name)}.json`), json);
  }

  canCommit(): boolean {
    return true;
  }

  commit(): Promise<SinkState> {
    // Each file is complete once writeFile resolved; there is no single output length to record.
    return Promise.resolve({ bytes: 0, chunks: 0 });
  }

  close(_finished: boolean): Promise<void> {
    return Promise.resolve();
  }
}

export function fileStem(record: SourceRecord, name: string | undefined): string {
  if (record.wholeFile) return stripExtension(basename(record.source));
  if (name !== undefined && name.length > 0) return safeFileName(name);
  return `${safeFileName(stripExtension(basename(record.source)))}-${record.position}`;
}

function stripExtension(file: string): string {
  const stem = file.replace(/\.(html?|json|ndjson|jsonl|wikitext|xml)(\.gz|\.bz2)?$/i, '').replace(/\.(tar\.gz|tgz)$/i, '');
  return stem.length > 0 ? stem : file;
}

/** Titles may hold `/` and other characters file systems refuse; spaces become `_` as in URLs. */
function safeFileName(name: string): string {
  const safe = name.replace(/ /g, '_').replace(/[/\\\u0000-\u001f:*?"<>|]/g, '_');
  // Keep well under the usual 255-byte name limit, leaving room for ".json".
  return Buffer.byteLength(safe) > 200 ? Buffer.from(safe).subarray(0, 200).toString('utf8').replace(/\uFFFD+$/, '') : safe;
}
