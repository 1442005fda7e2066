/**
 * Runs one input through the engine and classifies what happened. The engine's contract: it
 * returns an Article that validates against ArticleSchema, or throws one of its typed errors.
 * Anything else — another exception, an invalid Article — is a bug.
 */
import { performance } from 'node:perf_hooks';
import { ArticleSchema, WikistructError, parse, parseWikitext } from '../../src/index.js';
import type { Target } from './inputs.js';

export type Outcome =
  | { kind: 'ok'; ms: number }
  /** A typed error: the engine refusing input it documents it refuses. */
  | { kind: 'typed'; ms: number; code: string }
  | { kind: 'untyped'; ms: number; error: { name: string; message: string; stack: string } }
  | { kind: 'schema'; ms: number; issues: string[] }
  /** Only from an executor that bounds time or memory: the input never finished. */
  | { kind: 'timeout' | 'crash'; ms: number; message: string };

const WIKITEXT_META = { name: 'Fuzz', project: 'enwiki', language: 'en' };

/** `ms` is the engine's time alone; validating the result is not counted. */
export function examine(target: Target, text: string): Outcome {
  const start = performance.now();
  let article: unknown;
  try {
    article = target === 'wikitext' ? parseWikitext(text, WIKITEXT_META) : parse(text);
  } catch (error) {
    const ms = performance.now() - start;
    if (error instanceof WikistructError) return { kind: 'typed', ms, code: error.code };
    const e = error instanceof Error ? error : new Error(String(error));
    return { kind: 'untyped', ms, error: { name: e.name, message: e.message, stack: e.stack ?? '' } };
  }
  const ms = performance.now() - start;
  const check = ArticleSchema.safeParse(article);
  if (!check.success) {
    return { kind: 'schema', ms, issues: check.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) };
  }
  return { kind: 'ok', ms };
}
