/**
 * The service's one way into the engine: every parse — a stored or fetched envelope (the content
 * routes, the importer, the upstream loader, snapshot builds), a page pasted to `POST /v2/parse`,
 * a stored source shown by `GET /v2/source` — runs on a worker thread of one pool
 * (src/workers/pool.ts), never on the event loop. A large page parses for hundreds of
 * milliseconds; on the event loop every other request of the process (a cached read, /healthz)
 * would wait for it.
 *
 * Workers run `convertPayload` (src/workers, shared with `wikistruct convert`), so the service
 * and the batch converter produce byte-identical JSON. Replies are Article JSON text: the worker
 * serialises, the main thread only moves bytes.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PageLinks, WikitextMeta } from '../index.js';
import type { Outcome, Payload, RecordParseOptions } from '../io/record.js';
import type { ConvertOptions } from '../workers/convert-record.js';
import { WorkerPool, workerEntry } from '../workers/pool.js';

/** Every page of a dump is converted: the service asks for articles by name, not by namespace. */
const CONVERT: ConvertOptions = { allPages: true };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A record the engine refused, with the engine's code (`INPUT_TOO_LARGE`, `INPUT_TOO_COMPLEX`,
 * `NOT_HTML`, `INVALID_INPUT`, `MALFORMED_JSON`, a worker's `OUT_OF_MEMORY` …) and message.
 * An engine bug (`INTERNAL`) is a plain Error: the route answers it with a 500.
 */
export class ParseFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParseFailedError';
  }
}

export interface EngineClient {
  /** An Enterprise envelope (`article_body.html` and/or `.wikitext` plus metadata) → Article JSON text. */
  parseEnvelope(envelope: Record<string, unknown>, options?: RecordParseOptions): Promise<string>;
  /** A page's HTML (Parsoid or rendered) → Article JSON text. */
  parseHtml(html: string, options?: RecordParseOptions): Promise<string>;
  /** Wikitext with its page's title and wiki → Article JSON text. */
  parseWikitext(wikitext: string, meta: WikitextMeta, options?: Pick<RecordParseOptions, 'maxInputBytes'>): Promise<string>;
  /**
   * A Parsoid page's categories and templates (`readPageLinks`); `base`, the wiki's article path
   * (`https://en.wikipedia.org/wiki/`), names their URLs when the page has no `<base href>`.
   */
  pageLinks(html: string, base?: string): Promise<PageLinks>;
  /** Worker threads at most. */
  readonly threads: number;
  close(): Promise<void>;
}

/** The service's default: two threads on a machine with cores to spare, else one. */
export function defaultEngineThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 2));
}

export interface EngineClientOptions {
  /** Worker threads at most (at least 1). */
  threads: number;
  /** Threads started at once (0: the first with the first parse); the others when the running ones are all busy. Default: all. */
  initialThreads?: number;
  /** The wiki of wikitext records that do not name their own (`wikistruct import --siteinfo FILE`): the file's XML. */
  siteinfo?: string | undefined;
  /** Young generation of each thread (pool.ts); default SERVICE_YOUNG_GENERATION_MB. */
  youngGenerationMb?: number;
}

/**
 * Young generation of the service's engine threads: V8's own default (16 MB semi-spaces), not
 * the 96 MB `convert` takes (pool.ts). `convert` keeps two threads busy for hours and trades
 * ~100 MB for 18% less CPU; the service parses a page now and then, and its memory is what
 * decides the smallest machine it runs on.
 */
export const SERVICE_YOUNG_GENERATION_MB = 48;

/** A client over a fresh worker pool. The compiled worker must exist (`npm run build`). */
export function createEngineClient(options: EngineClientOptions): EngineClient {
  const threads = Math.max(1, options.threads);
  if (!existsSync(fileURLToPath(workerEntry()))) {
    throw new Error(`the engine's worker thread is not built (${fileURLToPath(workerEntry())}): run \`npm run build\``);
  }
  const convert: ConvertOptions = options.siteinfo === undefined ? CONVERT : { ...CONVERT, siteinfo: options.siteinfo };
  const pool = new WorkerPool(threads, convert, {
    initial: options.initialThreads ?? threads,
    youngGenerationMb: options.youngGenerationMb ?? SERVICE_YOUNG_GENERATION_MB,
  });
  const run = async (payload: Payload): Promise<string> => textOf(await pool.run(payload));
  return {
    threads,
    parseEnvelope: (envelope, parse) => run(withOptions({ kind: 'json', bytes: encoder.encode(JSON.stringify(envelope)) }, parse)),
    parseHtml: (html, parse) => run(withOptions({ kind: 'html', bytes: encoder.encode(html) }, parse)),
    parseWikitext: (wikitext, meta, parse) => run(withOptions({ kind: 'wikitext', bytes: encoder.encode(wikitext), meta }, parse)),
    pageLinks: async (html, base) => JSON.parse(await run({ kind: 'html', bytes: encoder.encode(html), links: base === undefined ? {} : { base } })) as PageLinks,
    close: () => pool.close(),
  };
}

function withOptions(payload: Payload, parse: RecordParseOptions | undefined): Payload {
  if (parse !== undefined) payload.parse = parse;
  return payload;
}

function textOf(outcome: Outcome): string {
  if (outcome.status === 'ok') return decoder.decode(outcome.json);
  if (outcome.status === 'skipped') throw new ParseFailedError('SKIPPED', outcome.reason);
  if (outcome.code === 'INTERNAL' || outcome.code === undefined) throw new Error(outcome.message);
  throw new ParseFailedError(outcome.code, outcome.message);
}
