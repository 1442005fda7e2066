/**
 * The resume guarantee: a run killed mid-way (SIGKILL, or Ctrl-C) and then continued with
 * --resume produces exactly the bytes of an uninterrupted run — output and errors file.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointSchema } from '../../src/batch/checkpoint.js';
import { cut, envelope, parseLines, readTarGz, removeTempDirs, smallDump, tempDir } from '../batch/fixtures.js';
import { cli, start } from './cli.js';

afterAll(removeTempDirs);

const RECORDS = 4000;
const dir = tempDir('resume');
const input = join(dir, 'in.ndjson');
const clean = join(dir, 'clean.ndjson');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls the checkpoint until the run has committed some records, then sends `signal`. */
async function interrupt(output: string, signal: NodeJS.Signals, extra: string[] = [], inputs = [input]) {
  const run = start(['convert', ...inputs, '-o', output, '-j', '2', '--quiet', '--checkpoint-interval', '0.1', ...extra]);
  const checkpointFile = `${output}.checkpoint.json`;
  let records = 0;
  for (let i = 0; i < 1200 && records === 0; i++) {
    await sleep(50);
    if (existsSync(checkpointFile)) {
      try {
        records = CheckpointSchema.parse(JSON.parse(readFileSync(checkpointFile, 'utf8'))).records;
      } catch {
        // Caught between write and rename: read again.
      }
    }
  }
  run.child.kill(signal);
  const result = await run.done;
  expect(existsSync(checkpointFile), 'the run was still going when interrupted (else: make RECORDS larger)').toBe(true);
  const checkpoint = CheckpointSchema.parse(JSON.parse(readFileSync(checkpointFile, 'utf8')));
  return { result, checkpoint };
}

beforeAll(async () => {
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    // Every 97th record is broken, so that the errors file has to survive the resume too.
    lines.push(i % 97 === 5 ? `{"name": "Broken ${i}", "article_body": ` : JSON.stringify(envelope(`Record ${i}`, i + 1, 40)));
  }
  writeFileSync(input, lines.join('\n') + '\n');
  const result = await cli(['convert', input, '-o', clean, '-j', '2', '--quiet']);
  expect(result.code, 'the clean run reports the broken records').toBe(1);
}, 120_000);

describe('--resume', () => {
  it('after SIGKILL mid-run: NDJSON output and errors file byte-identical to an uninterrupted run', async () => {
    const output = join(dir, 'killed.ndjson');
    const { result, checkpoint } = await interrupt(output, 'SIGKILL');
    expect(result.signal, 'the run was killed, not finished').toBe('SIGKILL');
    expect(checkpoint.records > 0 && checkpoint.records < RECORDS, `checkpoint mid-way (${checkpoint.records})`).toBe(true);
    const resumed = await cli(['convert', input, '-o', output, '-j', '2', '--quiet', '--resume']);
    expect(resumed.code, 'resumed run exit code (broken records)').toBe(1);
    expect(readFileSync(output).equals(readFileSync(clean)), 'output identical to the clean run').toBe(true);
    expect(readFileSync(`${output}.errors.ndjson`, 'utf8'), 'errors file identical').toBe(readFileSync(`${clean}.errors.ndjson`, 'utf8'));
    expect(existsSync(`${output}.checkpoint.json`), 'checkpoint removed after completion').toBe(false);
  }, 120_000);

  it('after Ctrl-C (SIGINT): exit 130 with a checkpoint; gzip output resumes to the same records', async () => {
    const output = join(dir, 'interrupted.ndjson.gz');
    const { result, checkpoint } = await interrupt(output, 'SIGINT');
    expect(result.code, 'interrupted exit code').toBe(130);
    expect(result.stderr, 'tells how to continue').toContain('--resume');
    expect(checkpoint.records < RECORDS, 'stopped before the end').toBe(true);
    const resumed = await cli(['convert', input, '-o', output, '-j', '2', '--quiet', '--resume']);
    expect(resumed.code, 'resumed run exit code').toBe(1);
    expect(gunzipSync(readFileSync(output)).equals(readFileSync(clean)), 'decompressed output identical to the clean run').toBe(true);
  }, 120_000);

  it('snapshot output: killed mid-run, resumed, holds exactly the records of a clean run in valid tar.gz', async () => {
    const output = join(dir, 'snap.tar.gz');
    const { result } = await interrupt(output, 'SIGKILL', ['--format', 'snapshot', '--chunk-size', '256K']);
    expect(result.signal, 'killed').toBe('SIGKILL');
    const resumed = await cli(['convert', input, '-o', output, '-j', '2', '--quiet', '--resume', '--format', 'snapshot', '--chunk-size', '256K']);
    expect(resumed.code, 'resumed run exit code').toBe(1);
    const entries = await readTarGz(output);
    expect(entries.map((e) => e.name), 'chunk files numbered without gaps').toEqual(entries.map((_, i) => `snap_${i}.ndjson`));
    expect(entries.map((e) => e.text).join(''), 'records identical to the clean run').toBe(readFileSync(clean, 'utf8'));
  }, 120_000);

  it('over broken inputs (a dangling link, an empty file, the records through a link, a cut dump, a cycle): killed, resumed, the bytes of a clean run', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(join(mixed, 'e-loop'), { recursive: true });
    symlinkSync('gone.html', join(mixed, 'a-dangling.html'));
    writeFileSync(join(mixed, 'b-empty.html'), '');
    symlinkSync(input, join(mixed, 'c-records.ndjson'));
    const dump = smallDump();
    writeFileSync(join(mixed, 'd-cut.xml'), cut(dump, dump.indexOf("'''Charles")));
    symlinkSync('..', join(mixed, 'e-loop', 'up'));
    const cleanMixed = join(dir, 'mixed-clean.ndjson');
    expect((await cli(['convert', mixed, '-o', cleanMixed, '-j', '2', '--quiet'])).code, 'clean run: failed inputs').toBe(1);
    const codes = parseLines(readFileSync(`${cleanMixed}.errors.ndjson`, 'utf8')).map((e) => e.code);
    expect(codes.filter((c) => c !== 'MALFORMED_JSON'), 'the broken inputs, around the records').toEqual(['DANGLING_SYMLINK', 'EMPTY_INPUT', 'TRUNCATED_INPUT', 'SYMLINK_LOOP']);
    const output = join(dir, 'mixed.ndjson');
    const { result, checkpoint } = await interrupt(output, 'SIGKILL', [], [mixed]);
    expect(result.signal, 'killed').toBe('SIGKILL');
    expect(checkpoint.records > 2 && checkpoint.records < RECORDS, `checkpoint past the first failures, before the end (${checkpoint.records})`).toBe(true);
    const resumed = await cli(['convert', mixed, '-o', output, '-j', '2', '--quiet', '--resume']);
    expect(resumed.code, 'resumed run exit code').toBe(1);
    expect(readFileSync(output).equals(readFileSync(cleanMixed)), 'output identical to the clean run').toBe(true);
    expect(readFileSync(`${output}.errors.ndjson`, 'utf8'), 'errors file identical').toBe(readFileSync(`${cleanMixed}.errors.ndjson`, 'utf8'));
  }, 120_000);

  it('refuses a checkpoint written for other inputs', async () => {
    const output = join(dir, 'other.ndjson');
    writeFileSync(`${output}.checkpoint.json`, JSON.stringify({
      version: 1, run: { inputs: ['/elsewhere.ndjson'], format: 'ndjson', allPages: false },
      records: 1, outputBytes: 0, errorsBytes: 0, chunks: 0, counts: { converted: 1, failed: 0, skipped: 0 },
    }));
    const result = await cli(['convert', input, '-o', output, '--resume', '--quiet']);
    expect(result.code, 'usage error').toBe(2);
    expect(result.stderr, 'names the reason').toContain('belongs to another run (the inputs differ)');
  });
});
