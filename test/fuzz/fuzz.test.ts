/**
 * A short, seeded fuzz run in every `npm test`: a fixed number of inputs (not a time box, so the
 * run is the same on any machine), run in-process. Untyped throws and schema failures fail the
 * test; slow inputs depend on the machine and are only printed. `npm run fuzz` runs the same core
 * for longer, in a worker that bounds each input's time.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../scripts/fuzz/executor.js';
import { inProcess } from '../../scripts/fuzz/executor.js';
import { InputMaker } from '../../scripts/fuzz/inputs.js';
import type { Finding, Stats } from '../../scripts/fuzz/run.js';
import { fuzz } from '../../scripts/fuzz/run.js';
import { corpusPool, generatedPool } from '../../scripts/fuzz/seeds.js';

const SEED = 20261122;
const corpus = corpusPool();

async function run(pool: NonNullable<ReturnType<typeof corpusPool>>, iterations: number): Promise<{ stats: Stats; failures: Finding[] }> {
  const failures: Finding[] = [];
  const stats = await fuzz({
    seed: SEED,
    pool,
    executor: inProcess,
    iterations,
    baselineSamples: 3,
    onFinding: (f) => {
      if (f.kind === 'slow') console.log(`fuzz: slow input (reported, not asserted): ${f.signature}, ${Math.round(f.outcome.ms)} ms, index ${f.input.index}`);
      else failures.push(f);
    },
  });
  return { stats, failures };
}

function describeFailures(failures: Finding[]): string {
  return failures
    .map((f) => `${f.signature} — index ${f.input.index} (${f.input.recipe.join('; ')}); replay: npm run fuzz -- --seed ${SEED} --index ${f.input.index}`)
    .join('\n');
}

describe('seeded fuzz run', () => {
  it.skipIf(corpus === undefined)('300 mutated corpus pages: no untyped throw, no schema failure', async () => {
    const { stats, failures } = await run(corpus!, 300);
    expect(failures, describeFailures(failures)).toEqual([]);
    expect(stats.inputs, 'every input ran (300 + the baseline pages)').toBeGreaterThan(300);
    expect(stats.byTarget.wikitext, 'the wikitext path was fed too').toBeGreaterThan(0);
    expect(stats.byTarget.envelope, 'and envelopes').toBeGreaterThan(0);
  }, 300_000);

  it('150 mutated generated documents: no untyped throw, no schema failure', async () => {
    const { stats, failures } = await run(generatedPool(SEED), 150);
    expect(failures, describeFailures(failures)).toEqual([]);
    expect(stats.outcomes.ok, 'most inputs parse').toBeGreaterThan(75);
  }, 300_000);
});

describe('the harness', () => {
  const pool = generatedPool(1, 8);

  it('regenerates the same input from the same seed and index, so a finding can be replayed', () => {
    const a = new InputMaker(pool);
    const b = new InputMaker(pool);
    for (const index of [0, 1, 17, 999]) expect(b.make(7, index)).toEqual(a.make(7, index));
    expect(a.make(7, 1).text, 'different indexes, different inputs').not.toBe(a.make(7, 2).text);
  });

  it('reports untyped throws, schema failures and slow inputs, once per signature with a count', async () => {
    // A stand-in engine: one character per microsecond, except for three planted indexes.
    const planted: Executor = {
      run: (input) => {
        const ms = input.text.length / 1000;
        if (input.index === 3 || input.index === 5) {
          return Promise.resolve({ kind: 'untyped', ms, error: { name: 'TypeError', message: 'x is null', stack: 'TypeError: x is null\n    at f (/p/src/engine/x.ts:12:3)' } });
        }
        if (input.index === 4) return Promise.resolve({ kind: 'schema', ms, issues: ['sections.0.value: expected string'] });
        if (input.index === 6) return Promise.resolve({ kind: 'ok', ms: 1_000 + ms * 20 });
        return Promise.resolve({ kind: 'ok', ms });
      },
      close: () => Promise.resolve(),
    };
    const findings: Finding[] = [];
    const stats = await fuzz({ seed: 1, pool, executor: planted, iterations: 10, slow: { factor: 10, floorMs: 100 }, onFinding: (f) => void findings.push(f) });
    expect(findings.map((f) => [f.kind, f.input.index, f.occurrence])).toEqual([
      ['untyped', 3, 1],
      ['schema', 4, 1],
      ['untyped', 5, 2],
      ['slow', 6, 1],
    ]);
    expect(findings[0]!.signature).toBe('TypeError: x is null at src/engine/x.ts:12');
    expect(stats.findings).toEqual({ untyped: 2, schema: 1, crash: 0, slow: 1, timeout: 0 });
    expect(stats.inputs, 'ten inputs and the baseline pages').toBeGreaterThan(10);
  });
});
