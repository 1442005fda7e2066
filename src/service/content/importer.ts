/**
 * Loads articles into the store from the inputs `wikistruct convert` reads (HTML files and
 * directories, envelopes, NDJSON, snapshot archives, XML dumps). Each record is parsed once (the
 * Article is cached with it) and keyed by project and normalised title; a newer revision replaces
 * an older one, an older one is skipped.
 */
import { hostOfProject, isEnvelopeLike, projectOfHost, type Article, type WikitextMeta } from '../../index.js';
import type { SourceRecord } from '../../io/record.js';
import { isFailure, readInputs } from '../../io/sources/index.js';
import { cutLine } from '../../io/sources/input-error.js';
import { titleOfFile } from '../../io/sources/readers.js';
import { readXmlPage } from '../../io/xml-page.js';
import { ParseFailedError, type EngineClient } from '../engine-client.js';
import { ENGINE_VERSION } from './engine-version.js';
import type { ArticleSource, ArticleStore, UpsertResult } from './store.js';
import { normalizeTitle } from './title.js';

export interface ImportOptions {
  store: ArticleStore;
  engine: EngineClient;
  /** Project of every record, overriding what the records say (needed for bare HTML without metadata). */
  project?: string | undefined;
  /** Records parsed at once (keeps every worker busy). */
  concurrency?: number;
  onProgress?: (summary: ImportSummary) => void;
}

export interface ImportFailure {
  source: string;
  position: number;
  message: string;
}

export interface ImportSummary {
  records: number;
  inserted: number;
  replaced: number;
  /** The store already had this or a newer revision. */
  keptNewer: number;
  skipped: number;
  failed: number;
  /** The first failures, for the report (all are counted). */
  failures: ImportFailure[];
}

const MAX_REPORTED_FAILURES = 20;
const decoder = new TextDecoder();

class ImportRecordError extends Error {}

export async function importInputs(inputs: readonly string[], options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { records: 0, inserted: 0, replaced: 0, keptNewer: 0, skipped: 0, failed: 0, failures: [] };
  const fail = (source: string, position: number, message: string): void => {
    summary.failed += 1;
    if (summary.failures.length < MAX_REPORTED_FAILURES) summary.failures.push({ source, position, message });
  };
  const window = new Set<Promise<void>>();
  const limit = Math.max(1, options.concurrency ?? 4);
  const items = readInputs(inputs, { exclude: new Set(), onRawBytes: () => {}, wholeFileLimit: 128 * 1024 * 1024 });
  for await (const item of items) {
    if (isFailure(item)) {
      fail(item.source, item.position, item.error);
      continue;
    }
    summary.records += 1;
    const task = importRecord(item, options).then(
      (result) => {
        if (result === 'skipped') summary.skipped += 1;
        else if (result === 'inserted') summary.inserted += 1;
        else if (result === 'replaced') summary.replaced += 1;
        else summary.keptNewer += 1;
        options.onProgress?.(summary);
      },
      (error: unknown) => fail(item.source, item.position, failureMessage(error)),
    );
    const tracked = task.finally(() => window.delete(tracked));
    window.add(tracked);
    if (window.size >= limit) await Promise.race(window);
  }
  await Promise.all(window);
  return summary;
}

async function importRecord(record: SourceRecord, options: ImportOptions): Promise<UpsertResult | 'skipped'> {
  const prepared = await prepareRecord(record, options);
  if (prepared === 'skipped') return 'skipped';
  return options.store.upsert(prepared.source, { engineVersion: ENGINE_VERSION, json: prepared.json });
}

/** A record as the store keeps it: its source row and the engine's Article JSON of it. */
export interface PreparedRecord {
  /** Always an import's row: the samples file (content/samples.ts) stores only such rows. */
  source: ArticleSource & { origin: 'import' };
  json: string;
}

/**
 * Parses one record and derives the row the store keeps (project, normalised title, revision,
 * language from the Article; the source and the envelope's metadata as delivered). Shared with
 * the build step that stores the sample articles pre-parsed (scripts/build-samples.ts), so that
 * what a first start loads is what an import of the same file stores.
 */
export async function prepareRecord(record: SourceRecord, options: Pick<ImportOptions, 'engine' | 'project'>): Promise<PreparedRecord | 'skipped'> {
  const envelope = envelopeOfRecord(record);
  if (envelope === undefined) return 'skipped';
  if (options.project !== undefined) envelope['is_part_of'] = { identifier: options.project };
  let json = await options.engine.parseEnvelope(envelope);
  let article = JSON.parse(json) as Article;
  if (article.name === undefined && record.payload.kind === 'html' && record.wholeFile) {
    // A bare Parsoid body carries no title: its file name is the title (parsed again so the
    // cached Article and a later re-parse of the stored envelope agree).
    envelope['name'] = titleOfFile(record.source);
    json = await options.engine.parseEnvelope(envelope);
    article = JSON.parse(json) as Article;
  }
  const project = options.project ?? article.is_part_of?.identifier;
  if (project === undefined) throw new ImportRecordError('the record does not say which project it belongs to; pass --project');
  if (article.name === undefined) throw new ImportRecordError('the record has no title');
  const { article_body: body, ...meta } = envelope as { article_body: { html?: string; wikitext?: string } } & Record<string, unknown>;
  const source: PreparedRecord['source'] = {
    project,
    title: normalizeTitle(article.name, project),
    revision: article.version?.identifier ?? 0,
    pageId: article.identifier,
    // Bare HTML may not say its language; the project's wiki does (frwiki → fr).
    language: article.in_language?.identifier ?? languageOfProject(project),
    html: body.html,
    wikitext: body.wikitext,
    meta,
    origin: 'import',
  };
  return { source, json };
}

/** A record's failure as the report shows it; the engine's refusals lead with their code (`INPUT_TOO_COMPLEX: …`). */
function failureMessage(error: unknown): string {
  if (error instanceof ParseFailedError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function languageOfProject(project: string): string | undefined {
  const host = hostOfProject(project);
  return host === undefined ? undefined : projectOfHost(host)?.language;
}

/** The record as an envelope; undefined for XML-dump pages that are not articles (redirects, other namespaces). */
function envelopeOfRecord(record: SourceRecord): Record<string, unknown> | undefined {
  const text = decoder.decode(record.payload.bytes);
  switch (record.payload.kind) {
    case 'html':
      return { article_body: { html: text } };
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        const malformed = `malformed JSON: ${error instanceof Error ? error.message : String(error)}`;
        // The input's last line without its newline: the input was cut inside it (as `convert` reports).
        throw new ImportRecordError(record.unterminated === true ? cutLine(malformed).message : malformed);
      }
      if (!isEnvelopeLike(value)) throw new ImportRecordError('not an article envelope (no "article_body")');
      return { ...value };
    }
    case 'xml-page': {
      const page = readXmlPage(text, record.payload.site ?? {});
      if (page.redirect || page.namespace !== 0) return undefined;
      return wikitextEnvelope(page.wikitext, page.meta);
    }
    case 'wikitext':
      return wikitextEnvelope(text, record.payload.meta ?? {});
    default: {
      const never: never = record.payload.kind;
      throw new Error(`unknown payload kind ${String(never)}`);
    }
  }
}

/** Wikitext and its page's meta as the envelope the store keeps. */
function wikitextEnvelope(wikitext: string, meta: WikitextMeta): Record<string, unknown> {
  const envelope: Record<string, unknown> = { article_body: { wikitext } };
  if (meta.name !== undefined) envelope['name'] = meta.name;
  if (meta.identifier !== undefined) envelope['identifier'] = meta.identifier;
  if (meta.revision !== undefined) envelope['version'] = { identifier: meta.revision };
  if (meta.dateModified !== undefined) envelope['date_modified'] = meta.dateModified;
  if (meta.url !== undefined) envelope['url'] = meta.url;
  if (meta.project !== undefined) envelope['is_part_of'] = { identifier: meta.project };
  if (meta.language !== undefined) envelope['in_language'] = { identifier: meta.language };
  return envelope;
}
