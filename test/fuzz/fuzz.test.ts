/**
 * A short, seeded fuzz run in every `npm test`: a fixed number of inputs (not a time box, so the
 * run is the same on any machine), run in-process. Untyped throws and schema failures fail the
 * test; slow inputs depend on the machine and are only printed. `npm run fuzz` runs the same core
 * for longer, in a worker that bounds each input's time.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../scripts/fuzz/executor.js';
import { inProcess } from '../../scripts/fuzz/executor.js';
import { examine } from '../../scripts/fuzz/examine.js';
import { DEFAULT_LIMITS, InputMaker } from '../../scripts/fuzz/inputs.js';
import type { InputLimits } from '../../scripts/fuzz/inputs.js';
import type { Finding, Stats } from '../../scripts/fuzz/run.js';
import { GROWTH, fuzz } from '../../scripts/fuzz/run.js';
import { corpusPool, generatedPool } from '../../scripts/fuzz/seeds.js';
import type { ShapeKind } from '../../scripts/fuzz/shapes.js';
import { constructsOf, shapeDocument } from '../../scripts/fuzz/shapes.js';

const SEED = 20261122;
const corpus = corpusPool();
/** Generated shapes kept small in the suite (the command's are up to 2 Mi of HTML, 256 Ki of wikitext). */
const LIMITS: InputLimits = { ...DEFAULT_LIMITS, maxShapeChars: { html: 128 * 1024, wikitext: 16 * 1024 } };

async function run(pool: NonNullable<ReturnType<typeof corpusPool>>, iterations: number): Promise<{ stats: Stats; failures: Finding[] }> {
  const failures: Finding[] = [];
  const stats = await fuzz({
    seed: SEED,
    pool,
    executor: inProcess,
    limits: LIMITS,
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

describe('generated shapes (scripts/fuzz/shapes.ts)', () => {
  const kinds: ShapeKind[] = ['wide', 'deep', 'long'];
  const all = (['html', 'wikitext'] as const).flatMap((door) =>
    kinds.flatMap((kind) => constructsOf(door, kind).map((c, construct) => ({ door, kind, construct, name: c.name }))),
  );

  it.each(all)('$kind $door: $name — an Article or a typed error', ({ door, kind, construct }) => {
    for (const closed of kind === 'deep' ? [true, false] : [true]) {
      const { text, description } = shapeDocument({ door, kind, construct, count: 1_000_000, closed }, LIMITS.maxShapeChars[door]);
      const outcome = examine(door, text);
      expect(['ok', 'typed'], `${description}: ${JSON.stringify(outcome).slice(0, 300)}`).toContain(outcome.kind);
    }
  }, 60_000);

  it('include the attacks of issue 22: spanned cells, 130,000 paragraphs, unclosed <ref>', () => {
    const find = (door: 'html' | 'wikitext', kind: ShapeKind, name: string): number => constructsOf(door, kind).findIndex((c) => c.name === name);
    const spans = shapeDocument({ door: 'html', kind: 'wide', construct: find('html', 'wide', 'tables of spanning cells'), count: 45, closed: true }, DEFAULT_LIMITS.maxShapeChars.html);
    expect(spans.text.length, 'the 92 KB page of item 2').toBeLessThan(100_000);
    expect(examine('html', spans.text)).toMatchObject({ kind: 'typed', code: 'INPUT_TOO_COMPLEX' });
    const wide = shapeDocument({ door: 'html', kind: 'wide', construct: find('html', 'wide', 'paragraphs'), count: 130_000, closed: true }, DEFAULT_LIMITS.maxShapeChars.html);
    expect(wide.description, 'item 4 fits the size cap').toBe('wide html: paragraphs ×130000');
    const refs = shapeDocument({ door: 'wikitext', kind: 'long', construct: find('wikitext', 'long', 'unclosed references'), count: 300_000, closed: true }, DEFAULT_LIMITS.maxShapeChars.wikitext);
    expect(refs.text.length, 'item 3: a quarter of a megabyte of unclosed <ref>').toBeGreaterThan(250_000);
    expect(refs.description).toMatch(/^long wikitext: unclosed references ×\d+$/);
  });

  it('are drawn for about one input in five', () => {
    const maker = new InputMaker(generatedPool(3, 8), LIMITS);
    const generated = Array.from({ length: 400 }, (_, i) => maker.make(9, i)).filter((input) => input.recipe[0]!.startsWith('generated'));
    expect(generated.length).toBeGreaterThan(40);
    expect(generated.length).toBeLessThan(160);
    expect(new Set(generated.map((g) => g.target)), 'in both doors').toEqual(new Set(['html', 'wikitext']));
  });
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

  it('reports a generated shape whose time grows faster than its size as superlinear, and not a linear one', async () => {
    // Generated shapes cost (length / 1000)² ms here, mutated pages length / 1000: only the
    // shapes are superlinear, and only those long enough to time (over the 1 ms floor).
    const quadratic: Executor = {
      run: (input) => {
        const units = input.text.length / 1000;
        const generated = input.recipe[0]!.startsWith('generated');
        return Promise.resolve({ kind: 'ok', ms: generated && input.index >= 0 ? units * units : units });
      },
      close: () => Promise.resolve(),
    };
    const findings: Finding[] = [];
    await fuzz({ seed: 2, pool, executor: quadratic, iterations: 60, limits: LIMITS, slow: { factor: 1000, floorMs: 1 }, onFinding: (f) => void findings.push(f) });
    expect(findings.length, 'some shapes were drawn').toBeGreaterThan(0);
    for (const f of findings) {
      expect(f.signature).toMatch(/^superlinear (html|wikitext): (wide|deep|long) /);
      expect(f.input.recipe[0]).toMatch(/^generated/);
      expect(f.outcome.ms / f.expectedMs!, 'over GROWTH / 4 times what linear growth from its quarter predicts').toBeGreaterThan(GROWTH / 4);
    }
    const linear = await fuzz({ seed: 2, pool, executor: { ...quadratic, run: (input) => Promise.resolve({ kind: 'ok', ms: input.text.length / 1000 }) }, iterations: 60, limits: LIMITS, slow: { factor: 1000, floorMs: 1 } });
    expect(linear.findings.slow, 'linear shapes are not reported').toBe(0);
  });
});
