/**
 * Envelope → Article JSON text, off the event loop when threads are available. Parsing a large
 * article takes tens of milliseconds of CPU; on a worker thread the service keeps answering
 * cached requests meanwhile. Both paths run `convertPayload` (src/workers, shared with the batch
 * converter), so the service and `wikistruct convert` produce byte-identical JSON.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { convertPayload, type ConvertOptions } from '../../workers/convert-record.js';
import { loadEngines, type Engines } from '../../workers/engines.js';
import { WorkerPool, workerEntry } from '../../workers/pool.js';
import type { Outcome, Payload } from '../../io/record.js';

const CONVERT: ConvertOptions = { allPages: true };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A record the engine refused (invalid input), with the engine's code and message. */
export class ParseFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParseFailedError';
  }
}

export interface ArticleParser {
  /** Parses an envelope (`article_body.html` and/or `.wikitext` plus metadata) into Article JSON text. */
  parse(envelope: Record<string, unknown>): Promise<string>;
  /** 'inline' or the number of worker threads. */
  readonly mode: string;
  close(): Promise<void>;
}

/**
 * `threads` > 0: a worker pool of that size (the compiled worker must exist: `npm run build`);
 * 0, or no compiled worker: on the calling thread.
 */
export async function createArticleParser(threads: number): Promise<ArticleParser> {
  if (threads > 0 && existsSync(fileURLToPath(workerEntry()))) {
    const pool = new WorkerPool(threads, CONVERT);
    return {
      mode: `${threads} worker thread${threads === 1 ? '' : 's'}`,
      parse: async (envelope) => textOf(await pool.run(payloadOf(envelope))),
      close: () => pool.close(),
    };
  }
  const engines: Engines = await loadEngines();
  return {
    mode: 'inline',
    parse: async (envelope) => textOf(convertPayload(payloadOf(envelope), engines, CONVERT)),
    close: async () => {},
  };
}

function payloadOf(envelope: Record<string, unknown>): Payload {
  return { kind: 'json', bytes: encoder.encode(JSON.stringify(envelope)) };
}

function textOf(outcome: Outcome): string {
  if (outcome.status === 'ok') return decoder.decode(outcome.json);
  if (outcome.status === 'skipped') throw new ParseFailedError('SKIPPED', outcome.reason);
  if (outcome.code === 'INTERNAL' || outcome.code === undefined) throw new Error(outcome.message);
  throw new ParseFailedError(outcome.code, outcome.message);
}
