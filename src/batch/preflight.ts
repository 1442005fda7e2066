/**
 * The checks of a run against the file system, made before any output is created, so that a run
 * refused as bad usage leaves nothing behind: inputs that do not exist (when the run requires them
 * to), output files whose directory does not exist, and inputs that cannot fit in one JSON file
 * (`-o x.json`).
 *
 * Whether one input file holds one Article or many is known only by reading it (an XML dump or
 * NDJSON file of one page is common), so that last check happens in the JSON-file sink, which
 * holds its Article back until the run ends: a refused run writes no file there either.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Stats } from 'node:fs';
import type { OutputPlan, ResolvedRun } from './options.js';
import { UsageError } from './options.js';
import { SEVERAL_ARTICLES } from '../io/sinks/json-file.js';
import { reason } from '../io/sources/index.js';
import { pathExists } from '../io/sources/walk.js';


export async function preflight(run: ResolvedRun, plan: OutputPlan, output: string): Promise<void> {
  // A directory output is made with its parents; output files are not, so a typo in their
  // directory is caught here rather than after the whole run converted.
  const files: string[] = [];
  if (!plan.stdout && (plan.format !== 'json' || plan.singleFile)) files.push(output);
  if (run.errors !== undefined) files.push(run.errors);
  for (const file of files) {
    if ((await statOf(dirname(file)))?.isDirectory() !== true) {
      throw new UsageError(`${file === output ? `-o ${output}` : `--errors ${file}`}: the directory ${dirname(file)} does not exist`);
    }
  }
  if (plan.singleFile) {
    if (run.inputs.length > 1) throw new UsageError(`-o ${output} holds one Article, but ${run.inputs.length} inputs were given; ${SEVERAL_ARTICLES}`);
    if ((await statOf(output))?.isDirectory() === true) {
      throw new UsageError(`-o ${output} is an existing directory: write into it with -o ${output}/`);
    }
  }
  for (const input of run.inputs) {
    const info = await stat(input).catch((error: unknown) => reason(error));
    if (typeof info === 'string') {
      // A link that exists but leads nowhere is a failed input, reported with its target.
      if (run.requireInputs && !(await pathExists(input))) throw new UsageError(`input ${input}: ${info}`);
      continue; // reported as a failed input by the reader, the others still converted
    }
    if (plan.singleFile && info.isDirectory()) throw new UsageError(`-o ${output} holds one Article, but the input ${input} is a directory; ${SEVERAL_ARTICLES}`);
  }
}

async function statOf(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}
