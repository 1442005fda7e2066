/**
 * The rules behind `convert -o/--format/--pretty/--resume`, as properties of planOutput over any
 * output name and flag combination: it either refuses with a UsageError (never anything else) or
 * returns a plan that honours every flag it accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTPUT_FORMATS, planOutput, UsageError } from '../../src/batch/options.js';
import type { OutputPlan, OutputRequest } from '../../src/batch/options.js';

const name = fc.oneof(
  fc.constant('-'),
  fc
    .tuple(
      fc.constantFrom('out', 'dir/out', 'a.b', 'OUT'),
      fc.constantFrom('', '.json', '.JSON', '.ndjson', '.jsonl', '.ndjson.gz', '.tar.gz', '.tgz', '.gz', '.json.gz', '.html'),
      fc.constantFrom('', '/', '//'),
    )
    .map(([stem, extension, slash]) => `${stem}${extension}${slash}`),
);

const request: fc.Arbitrary<OutputRequest> = fc.record({
  output: name,
  format: fc.option(fc.constantFrom(...OUTPUT_FORMATS), { nil: undefined }),
  pretty: fc.boolean(),
  resume: fc.boolean(),
});

function attempt(r: OutputRequest): OutputPlan | UsageError {
  try {
    return planOutput(r);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

describe('planOutput (convert output flags)', () => {
  it('refuses only with a UsageError, and an accepted plan honours every flag', () => {
    fc.assert(
      fc.property(request, (r) => {
        const plan = attempt(r);
        if (plan instanceof UsageError) {
          expect(plan.message, 'a refusal names a flag').toMatch(/(^|\s)(-o|--format|--pretty|--resume)\b/);
          return;
        }
        if (r.format !== undefined) expect(plan.format, '--format is obeyed').toBe(r.format);
        expect(plan.stdout, 'stdout exactly for -o -').toBe(r.output === '-');
        expect(plan.pretty, '--pretty carried').toBe(r.pretty);
        if (plan.pretty) expect(plan.format === 'json' || plan.stdout, 'pretty only for JSON or stdout').toBe(true);
        if (r.resume === true) expect(!plan.stdout && !plan.singleFile, 'resume only for resumable outputs').toBe(true);
        expect(plan.singleFile, 'one file exactly for a JSON output named *.json without a trailing slash').toBe(
          plan.format === 'json' && /\.json$/i.test(r.output),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a plain name chooses the format it says, with no flags', () => {
    const cases: [string, Partial<OutputPlan>][] = [
      ['-', { format: 'ndjson', stdout: true }],
      ['x.json', { format: 'json', singleFile: true }],
      ['x.json/', { format: 'json', singleFile: false }],
      ['out', { format: 'json', singleFile: false }],
      ['x.ndjson', { format: 'ndjson', gzip: false }],
      ['x.ndjson.gz', { format: 'ndjson', gzip: true }],
      ['x.tar.gz', { format: 'snapshot' }],
    ];
    for (const [output, expected] of cases) expect(planOutput({ output }), `-o ${output}`).toMatchObject(expected);
  });

  it('--pretty is refused for NDJSON files and snapshots, accepted for JSON and stdout', () => {
    for (const output of ['x.ndjson', 'x.ndjson.gz', 'x.tar.gz']) {
      expect(() => planOutput({ output, pretty: true }), `-o ${output} --pretty`).toThrow(UsageError);
    }
    for (const output of ['x.json', 'dir', '-']) expect(planOutput({ output, pretty: true }).pretty, `-o ${output} --pretty`).toBe(true);
  });
});
