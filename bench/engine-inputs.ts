/**
 * What the engine benchmarks (engine.ts, instructions.ts) run: the corpus inputs as `parse` takes
 * them, and htmlparser2 over the very same HTML three ways — `parseDocument` (the baseline: the
 * DOM any htmlparser2-based engine builds before doing any work of its own), its `Parser` with no
 * handler (tag bookkeeping, no DOM) and its bare `Tokenizer` (the floor of a design built on it).
 */
import { readFileSync } from 'node:fs';
import { Parser, Tokenizer, parseDocument } from 'htmlparser2';
import type { TokenizerCallbacks } from 'htmlparser2';
import { parse } from '../src/index.js';
import { corpusCases, corpusDir } from '../scripts/conformance/corpus.js';

/** The command line's `name N`, a positive number; `fallback` when absent or not one. */
export function positiveArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The corpus folder; without one the benchmark says so and exits cleanly. */
export function benchCorpus(): string {
  const dir = corpusDir();
  if (dir === undefined) {
    console.log('bench: corpus not found (../shared/corpus or $WIKISTRUCT_CORPUS); nothing to measure');
    process.exit(0);
  }
  return dir;
}

export interface BenchInput {
  input: string | Record<string, unknown>;
  /** The HTML the engine parses out of `input`: what the htmlparser2 runs get. */
  html: string;
}

/** The corpus inputs; with `every` > 1 only every `every`-th one, for quicker runs. */
export function benchInputs(dir: string, every = 1): BenchInput[] {
  return corpusCases(dir)
    .filter((_, i) => i % every === 0)
    .map((c) => {
      const text = readFileSync(c.path, 'utf8');
      const input: string | Record<string, unknown> = c.kind === 'html' ? text : (JSON.parse(text) as Record<string, unknown>);
      // An envelope's HTML is its article_body.html (src/engine/input.ts reads it so); bench/ reaches
      // the engine only through src/index.ts (test/batch/layers.test.ts).
      return { input, html: typeof input === 'string' ? input : (input['article_body'] as { html: string }).html };
    });
}

export function htmlBytes(inputs: readonly BenchInput[]): number {
  return inputs.reduce((n, i) => n + Buffer.byteLength(i.html, 'utf8'), 0);
}

const PARSER_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

const noop = (): void => {};
/** Every tokenizer event ignored; `isInForeignContext` must still answer. */
const EMPTY_CALLBACKS: TokenizerCallbacks = {
  onattribdata: noop,
  onattribentity: noop,
  onattribend: noop,
  onattribname: noop,
  oncdata: noop,
  onclosetag: noop,
  oncomment: noop,
  ondeclaration: noop,
  onend: noop,
  onopentagend: noop,
  onopentagname: noop,
  onprocessinginstruction: noop,
  onselfclosingtag: noop,
  ontext: noop,
  ontextentity: noop,
  isInForeignContext: () => false,
};

/** One pass over all inputs each; the names are what the benchmarks print. */
export const RUNS = {
  parseDocument: (inputs: readonly BenchInput[]): void => {
    for (const i of inputs) parseDocument(i.html, PARSER_OPTIONS);
  },
  engine: (inputs: readonly BenchInput[]): void => {
    for (const i of inputs) parse(i.input);
  },
  parser: (inputs: readonly BenchInput[]): void => {
    for (const i of inputs) new Parser(null, PARSER_OPTIONS).end(i.html);
  },
  // As the engine's tree builder runs it: decoding character references is the builder's work
  // (src/engine/tree-builder.ts), which lets the tokenizer skip ahead to the next `<` or quote.
  tokenizer: (inputs: readonly BenchInput[]): void => {
    for (const i of inputs) {
      const tokenizer = new Tokenizer({ decodeEntities: false }, EMPTY_CALLBACKS);
      tokenizer.write(i.html);
      tokenizer.end();
    }
  },
} as const;

export type RunName = keyof typeof RUNS;
