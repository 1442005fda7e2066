/**
 * One fuzz input from (seed, index): a page from the pool, a window of it, a few mutations, and
 * for envelopes a metadata field of the wrong type; or, one time in five, a generated document of
 * extreme shape (shapes.ts: wide, deep, long). fast-check draws the plan, so the same seed, index
 * and pool always give the same input.
 */
import fc from 'fast-check';
import type { Dialect, Mutation } from './mutations.js';
import { applyMutation, describeMutation, htmlMutation, wikitextMutation } from './mutations.js';
import type { SeedPool } from './seeds.js';
import type { Shape } from './shapes.js';
import { shapeArbitrary, shapeDocument } from './shapes.js';

/** `html` goes to parse() as text, `envelope` to parse() as envelope JSON text, `wikitext` to parseWikitext(). */
export type Target = 'html' | 'envelope' | 'wikitext';

export interface FuzzInput {
  index: number;
  target: Target;
  text: string;
  /** What was done, for the report: page number, window, mutations. */
  recipe: string[];
  /**
   * Generated shapes only: the same document with a quarter of the repetitions or levels. Its
   * time against the input's shows how the cost grows (run.ts: superlinear), which catches a
   * quadratic corner that a throughput baseline of real pages is too coarse to see.
   */
  quarter?: string;
}

export interface InputLimits {
  /** Mutated HTML is cut to this many UTF-16 units (duplications and nesting can blow it up). */
  maxHtmlChars: number;
  /** Wikitext inputs are cut to this many units: wikiparser-node is far slower than the HTML path. */
  maxWikitextChars: number;
  /**
   * Generated shapes are cut to about this many units per door: 2 Mi of HTML holds the 130,000
   * paragraphs that once overflowed the stack; 256 Ki of wikitext parses in seconds even where
   * the wikitext parser is slowest (tables, headings), and is large enough for a quadratic cost to
   * stand out 10× from the baseline.
   */
  maxShapeChars: Record<Dialect, number>;
}

export const DEFAULT_LIMITS: InputLimits = { maxHtmlChars: 8 * 1024 * 1024, maxWikitextChars: 32 * 1024, maxShapeChars: { html: 2 * 1024 * 1024, wikitext: 256 * 1024 } };

type Plan = MutationPlan | { target: Target; shape: Shape };

interface MutationPlan {
  target: Target;
  page: number;
  whole: boolean;
  start: number;
  length: number;
  mutations: Mutation[];
  field: { key: string; value: unknown };
}

const ENVELOPE_KEYS = ['name', 'identifier', 'version', 'url', 'in_language', 'is_part_of', 'date_modified', 'main_entity', 'license', 'image', 'abstract', 'namespace'];

function planOf(target: Target, mutation: fc.Arbitrary<Mutation>, lengths: fc.Arbitrary<number>): fc.Arbitrary<MutationPlan> {
  return fc.record({
    target: fc.constant(target),
    page: fc.nat(),
    whole: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 5, arbitrary: fc.constant(false) }),
    start: fc.nat(),
    length: lengths,
    mutations: fc.array(mutation, { minLength: 1, maxLength: 6 }),
    field: fc.record({ key: fc.constantFrom(...ENVELOPE_KEYS), value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)) }),
  });
}

function planArbitrary(pool: SeedPool, limits: InputLimits): fc.Arbitrary<Plan> {
  const htmlLengths = fc.oneof(fc.integer({ min: 256, max: 4_096 }), fc.integer({ min: 4_096, max: 65_536 }), fc.integer({ min: 65_536, max: 524_288 }));
  const wikitextLengths = fc.oneof(fc.integer({ min: 64, max: 2_048 }), fc.integer({ min: 2_048, max: limits.maxWikitextChars }));
  const choices: fc.WeightedArbitrary<Plan>[] = [{ weight: 7, arbitrary: planOf('html', htmlMutation, htmlLengths) }];
  if (pool.wikitext.length > 0) choices.push({ weight: 2, arbitrary: planOf('wikitext', wikitextMutation, wikitextLengths) });
  if (pool.envelopes.length > 0) choices.push({ weight: 1, arbitrary: planOf('envelope', htmlMutation, htmlLengths) });
  choices.push({ weight: 2, arbitrary: shapeArbitrary('html').map((shape) => ({ target: 'html' as const, shape })) });
  choices.push({ weight: 1, arbitrary: shapeArbitrary('wikitext').map((shape) => ({ target: 'wikitext' as const, shape })) });
  return fc.oneof(...choices);
}

/** fast-check seeds are 32-bit integers; spread the indexes of one run over them. */
function inputSeed(seed: number, index: number): number {
  return (seed ^ Math.imul(index + 1, 0x9e3779b1)) | 0;
}

export class InputMaker {
  private readonly plans: fc.Arbitrary<Plan>;

  constructor(
    private readonly pool: SeedPool,
    private readonly limits: InputLimits = DEFAULT_LIMITS,
  ) {
    this.plans = planArbitrary(pool, limits);
  }

  make(seed: number, index: number): FuzzInput {
    const plan = fc.sample(this.plans, { seed: inputSeed(seed, index), numRuns: 1 })[0]!;
    if ('shape' in plan) {
      const cap = this.limits.maxShapeChars[plan.shape.door];
      const { text, description, count } = shapeDocument(plan.shape, cap);
      const input: FuzzInput = { index, target: plan.target, text, recipe: [`generated ${plan.shape.door} document`, description] };
      if (count >= 4) input.quarter = shapeDocument({ ...plan.shape, count: Math.floor(count / 4) }, cap).text;
      return input;
    }
    const dialect: Dialect = plan.target === 'wikitext' ? 'wikitext' : 'html';
    const pages = dialect === 'wikitext' ? this.pool.wikitext : this.pool.html;
    const page = plan.page % pages.length;
    const source = pages[page]!;
    const cap = dialect === 'wikitext' ? this.limits.maxWikitextChars : this.limits.maxHtmlChars;
    let text = windowOf(source, plan, dialect, cap);
    const recipe = [`${dialect} page ${page}, ${plan.whole && source.length <= cap ? 'whole' : `${text.length} chars from ${plan.start % (source.length + 1)}`}`];
    for (const m of plan.mutations) {
      text = applyMutation(text, m, dialect, pages).slice(0, cap);
      recipe.push(describeMutation(m));
    }
    if (plan.target === 'envelope') {
      const meta = { ...this.pool.envelopes[plan.page % this.pool.envelopes.length]!, [plan.field.key]: plan.field.value };
      recipe.push(`envelope field ${plan.field.key} = ${JSON.stringify(plan.field.value)?.slice(0, 40)}`);
      text = JSON.stringify({ ...meta, article_body: { html: text } });
    }
    return { index, target: plan.target, text, recipe };
  }
}

/** The whole page, or a window starting at a tag (HTML) or a line (wikitext). */
function windowOf(source: string, plan: MutationPlan, dialect: Dialect, cap: number): string {
  if (plan.whole && source.length <= cap) return source;
  const from = plan.start % (source.length + 1);
  const aligned = source.indexOf(dialect === 'html' ? '<' : '\n', from);
  const start = aligned < 0 ? from : aligned;
  return source.slice(start, start + Math.min(plan.length, cap));
}
