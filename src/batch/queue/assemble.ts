/**
 * The last step of a distributed run: every shard's part replayed, in shard order, through the
 * sinks of a single-machine run, so the output and the errors file are the same bytes. A shard
 * that failed for good (its worker died too often, or it kept throwing) is one line in the
 * errors file naming its first input and why.
 */
import type { ProgressCounts } from '../progress.js';
import type { Progress } from '../progress.js';
import type { SourceRecord } from '../../io/record.js';
import type { ErrorsFile } from '../../io/sinks/errors.js';
import type { ErrorLine } from '../../io/sinks/errors.js';
import type { Sink } from '../../io/sinks/sink.js';
import { readPart } from './part-file.js';
import { partPath } from './shard.js';
import type { RunPlan } from './shard.js';

export interface AssembleTarget {
  sink: Sink;
  errors: ErrorsFile | undefined;
  counts: ProgressCounts;
  progress: Progress;
}

export async function assemble(plan: RunPlan, partsDir: string, failedShards: ReadonlyMap<number, string>, target: AssembleTarget): Promise<void> {
  const { sink, errors, counts, progress } = target;
  const report = async (line: ErrorLine, wholeFile: boolean): Promise<void> => {
    counts.failed += 1;
    if (errors !== undefined) await errors.write(line);
    progress.log(`wikistruct: ${wholeFile ? line.source : `${line.source}:${line.position}`}: ${line.message}`);
  };
  for (const [index, pieces] of plan.shards.entries()) {
    const failure = failedShards.get(index);
    if (failure !== undefined) {
      const first = pieces[0]!;
      const files = pieces.length === 1 ? '' : ` and ${pieces.length - 1} more file(s)`;
      const range = first.start === undefined ? '' : ` from line ${first.firstLine ?? 1} (bytes ${first.start}-${first.end})`;
      await report({ name: first.label, source: first.label, position: first.firstLine ?? 0, code: 'SHARD_FAILED', message: `shard ${index}${range}${files} was not converted: ${failure}` }, first.start === undefined);
      continue;
    }
    for (const frame of await readPart(partPath(partsDir, plan.nonce, index))) {
      if (frame.t === 'ok') {
        const record: SourceRecord = { source: frame.source, position: frame.position, wholeFile: frame.wholeFile, payload: { kind: 'json', bytes: new Uint8Array(0) } };
        await sink.write(frame.json, record, frame.name);
        counts.converted += 1;
      } else if (frame.t === 'skip') {
        counts.skipped += 1;
      } else {
        await report(frame.line, frame.wholeFile);
      }
    }
  }
}
