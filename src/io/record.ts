/**
 * What flows through a batch: sources yield `SourceRecord`s, workers turn each into an `Outcome`.
 * Payloads stay raw bytes on the main thread (decoding and JSON parsing happen in the workers), and
 * each payload owns its ArrayBuffer so it can be transferred to a worker without a copy.
 */
import type { WikitextMeta } from '../index.js';
import type { SiteInfo } from './sources/siteinfo.js';

/** `wikitext`: bare wikitext with its page's `meta` (a `.wikitext` input file; the service's /v2/parse and /v2/source). */
export type PayloadKind = 'html' | 'json' | 'xml-page' | 'wikitext';

/** Engine options of one record, over the converter's (the service's /v2/parse sets its own input limit). */
export interface RecordParseOptions {
  maxInputBytes?: number;
  /** HTML only: a `source` hint on each block-level Part (engine/source-positions.ts). */
  sourcePositions?: boolean;
}

export interface Payload {
  kind: PayloadKind;
  /** UTF-8 bytes; `bytes.buffer` belongs to this payload alone (transferable). */
  bytes: Uint8Array;
  /** For `xml-page`: what the dump's <siteinfo> says about the wiki. */
  site?: SiteInfo;
  /** For `wikitext`: the page's title and wiki. */
  meta?: WikitextMeta;
  parse?: RecordParseOptions;
  /**
   * Set: not an Article but the page's categories and templates (`readPageLinks`), as JSON, from
   * the `html` payload; `base` is the wiki's article path for a page without a `<base href>`.
   */
  links?: { base?: string };
}

export interface SourceRecord {
  /** The input file (for archives: `archive.tar.gz:member.ndjson`). */
  source: string;
  /** 1-based place within the source: line of an NDJSON file, page of an XML dump, 1 for a single file. */
  position: number;
  /** The record is the whole input file (one .html or .json): the directory sink names it after the file. */
  wholeFile: boolean;
  payload: Payload;
  /**
   * The input's last line, ended by the end of the input rather than a newline. Legal, but if it
   * is not complete JSON the input was cut inside it: its failure is TRUNCATED_INPUT.
   */
  unterminated?: boolean;
}

export type Outcome =
  | { status: 'ok'; json: Uint8Array; name?: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; message: string; code?: string; name?: string };
