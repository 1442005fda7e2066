/**
 * Where a single-machine run writes and where it starts: the output plan, the errors file, the
 * checkpoint (file outputs only) and, with --resume, the checkpoint to continue from. Every check
 * that can refuse the run is made here, before any output is opened.
 */
import { resolve } from 'node:path';
import { checkpointPath, mismatch, readCheckpoint, removeCheckpoint } from './checkpoint.js';
import type { Checkpoint, RunIdentity } from './checkpoint.js';
import { planOutput, UsageError } from './options.js';
import type { OutputPlan, ResolvedRun } from './options.js';
import { preflight } from './preflight.js';
import { checkSiteinfoFile } from '../io/sources/siteinfo.js';

export interface RunTarget {
  plan: OutputPlan;
  /** The output path without trailing slashes, or `-` for stdout. */
  output: string;
  identity: RunIdentity;
  /** Undefined for stdout and for one JSON file: neither can be resumed. */
  checkpointFile: string | undefined;
  /** Undefined for stdout without --errors: failures are only reported on stderr. */
  errorsPath: string | undefined;
  /** The checkpoint a --resume run continues from; undefined for a run from the beginning. */
  resumeFrom: Checkpoint | undefined;
  /** The run's own files, should they sit in an input directory (the checkpoint is a .json file). */
  exclude: Set<string>;
  /** The XML of `--siteinfo FILE` (checked), the wiki of inputs that do not carry their own. */
  siteinfo: string | undefined;
}

/** Refuses a run that cannot start (UsageError) and clears a stale checkpoint of a run started over. */
export async function resolveTarget(run: ResolvedRun, writeErr: (text: string) => void): Promise<RunTarget> {
  const plan = planOutput(run);
  const output = plan.stdout ? '-' : run.output.replace(/\/+$/, '');
  const identity: RunIdentity = { inputs: run.inputs.map((p) => resolve(p)), format: describe(plan), allPages: run.allPages };
  if (run.from !== undefined) identity.from = run.from;

  if (!plan.stdout && identity.inputs.includes(resolve(output))) {
    throw new UsageError(`${output} is both an input and the output`);
  }
  // Read before anything is written: a bad file is bad usage.
  const siteinfo = run.siteinfo === undefined ? undefined : await checkSiteinfoFile(run.siteinfo);
  await preflight(run, plan, output);
  // Stdout cannot be truncated to a checkpoint; a single JSON file is written whole at the end.
  const checkpointFile = plan.stdout || plan.singleFile ? undefined : checkpointPath(output);
  const resumeFrom = await loadResume(run, plan, checkpointFile, identity, writeErr);
  if (checkpointFile !== undefined && resumeFrom === undefined) await removeCheckpoint(checkpointFile);

  const errorsPath = run.errors ?? (plan.stdout ? undefined : `${output}.errors.ndjson`);
  const exclude = new Set([resolve(output), ...(errorsPath === undefined ? [] : [resolve(errorsPath)])]);
  if (checkpointFile !== undefined) exclude.add(resolve(checkpointFile)).add(resolve(`${checkpointFile}.tmp`));
  return { plan, output, identity, checkpointFile, errorsPath, resumeFrom, exclude, siteinfo };
}

/** The output format as a checkpoint records it: resuming must not mix formats or indentation. */
export function describe(plan: OutputPlan): string {
  const format = plan.format === 'ndjson' && plan.gzip ? 'ndjson.gz' : plan.format;
  return plan.pretty ? `${format} (pretty)` : format;
}

async function loadResume(
  run: ResolvedRun,
  plan: OutputPlan,
  file: string | undefined,
  identity: RunIdentity,
  writeErr: (text: string) => void,
): Promise<Checkpoint | undefined> {
  if (!run.resume) return undefined;
  if (plan.stdout || file === undefined) throw new UsageError('--resume needs a file or directory output, not -o -');
  const saved = await readCheckpoint(file);
  if (saved === undefined) {
    writeErr(`wikistruct convert: no checkpoint at ${file}: starting from the beginning\n`);
    return undefined;
  }
  const why = mismatch(saved.run, identity);
  if (why !== undefined) throw new UsageError(`cannot resume: the checkpoint ${file} belongs to another run (${why}); run without --resume to start over`);
  return saved;
}
