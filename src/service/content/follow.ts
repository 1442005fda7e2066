/**
 * Follows a wiki's stream of page changes (Wikimedia EventStreams: server-sent events, one JSON
 * object per change, `mediawiki.page_change.v1` or `recentchange`) and tells the content service
 * of each change to an article, so a stored one is refreshed within seconds (`serve --follow`).
 *
 * The connection is the `eventsource` package's (the WHATWG EventSource). Its own reconnection
 * waits a fixed time, forever; here every failed or ended connection is closed and a new one made
 * after a backoff that doubles up to `maxDelayMs` (cockatiel's, half of it random), or longer when
 * the server's Retry-After asks, and that starts again from `initialDelayMs` once events flow.
 * Each new connection sends the id of the last event received (`Last-Event-ID`), so the stream
 * resumes where it broke off and no change in between is missed; a new process starts from the
 * id the last one saved (follow-position.ts).
 */
import { ExponentialBackoff, halfJitterGenerator } from 'cockatiel';
import type { IBackoff } from 'cockatiel';
import { EventSource } from 'eventsource';
import { z } from 'zod';
import { parseRetryAfter } from './upstream/retry-after.js';

/** A change to a page in the main (article) namespace. */
export interface PageChange {
  /** The wiki's database name, which is its project code (`enwiki`). */
  project: string;
  /** As the stream wrote it (spaces or underscores). */
  title: string;
  /** The page's new revision, when the event names one. */
  revision: number | undefined;
}

export interface ReconnectEvent {
  /** 1 for the first reconnection after a working connection. */
  attempt: number;
  delayMs: number;
  /** What ended the connection: "HTTP 503", "connection ended". */
  reason: string;
  /** What the next connection resumes from. */
  lastEventId: string | undefined;
}

export interface FollowOptions {
  /** The stream's URL. */
  url: string;
  userAgent: string;
  onChange(change: PageChange): void;
  /** First wait before reconnecting; doubled per failure in a row. Default 1 s. */
  initialDelayMs?: number;
  /** The longest wait. Default 5 min. */
  maxDelayMs?: number;
  /** A Retry-After longer than this is cut to it. Default 10 min. */
  retryAfterCapMs?: number;
  /** Told before each wait (logs; tests read the waits from it). */
  onReconnect?: (event: ReconnectEvent) => void;
  /** Told when a connection opens. */
  onOpen?: () => void;
  /** Told the id of each event received (follow-position.ts saves it). */
  onEventId?: (id: string) => void;
}

/** Wikimedia's stream of page changes (the `page-change` schema); `recentchange` is read too. */
export const WIKIMEDIA_PAGE_CHANGES = 'https://stream.wikimedia.org/v2/stream/mediawiki.page_change.v1';

export class ChangeFollower {
  readonly #options: FollowOptions;
  readonly #backoff: ExponentialBackoff<unknown>;
  readonly #retryAfterCapMs: number;
  #step: IBackoff<unknown> | undefined;
  #attempt = 0;
  #source: EventSource | undefined;
  #timer: NodeJS.Timeout | undefined;
  #lastEventId: string | undefined;
  #closed = false;

  constructor(options: FollowOptions) {
    this.#options = options;
    this.#backoff = new ExponentialBackoff({ initialDelay: options.initialDelayMs ?? 1_000, maxDelay: options.maxDelayMs ?? 5 * 60_000, generator: halfJitterGenerator });
    this.#retryAfterCapMs = options.retryAfterCapMs ?? 10 * 60_000;
  }

  /**
   * Connects, and keeps connecting until `close`. `resumeFrom`: the id of the last event a
   * previous process received (follow-position.ts), sent with the first connection.
   */
  start(resumeFrom?: string): void {
    if (this.#source !== undefined || this.#timer !== undefined || this.#closed) return;
    this.#lastEventId ??= resumeFrom;
    this.#connect();
  }

  /** The id of the last event received: where the next connection resumes. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#source?.close();
    this.#source = undefined;
  }

  #connect(): void {
    const resumeFrom = this.#lastEventId;
    const answer: { status?: number; retryAfterMs?: number | undefined } = {};
    const source = new EventSource(this.#options.url, {
      fetch: async (url, init) => {
        const headers: Record<string, string> = { ...init.headers, 'User-Agent': this.#options.userAgent };
        if (resumeFrom !== undefined && headers['Last-Event-ID'] === undefined) headers['Last-Event-ID'] = resumeFrom;
        const response = await fetch(url, { ...init, headers });
        answer.status = response.status;
        answer.retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        return response;
      },
    });
    this.#source = source;
    source.addEventListener('open', () => this.#options.onOpen?.());
    source.addEventListener('message', (event) => {
      if (event.lastEventId !== '' && event.lastEventId !== this.#lastEventId) {
        this.#lastEventId = event.lastEventId;
        this.#options.onEventId?.(event.lastEventId);
      }
      // Events flow: the next failure starts the backoff over.
      this.#step = undefined;
      this.#attempt = 0;
      const change = readChange(event.data);
      if (change !== undefined) this.#options.onChange(change);
    });
    source.addEventListener('error', (event) => {
      source.close();
      if (this.#source !== source || this.#closed) return;
      this.#source = undefined;
      const status = event.code ?? answer.status;
      const reason = status !== undefined && status !== 200 ? `HTTP ${status}` : (event.message ?? 'connection ended');
      this.#schedule(reason, status !== undefined && status !== 200 ? answer.retryAfterMs : undefined);
    });
  }

  #schedule(reason: string, retryAfterMs: number | undefined): void {
    this.#step = this.#step === undefined ? this.#backoff.next() : this.#step.next(undefined);
    this.#attempt += 1;
    const delayMs = Math.max(this.#step.duration, Math.min(retryAfterMs ?? 0, this.#retryAfterCapMs));
    this.#options.onReconnect?.({ attempt: this.#attempt, delayMs, reason, lastEventId: this.#lastEventId });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#connect();
    }, delayMs);
    this.#timer.unref();
  }
}

const Meta = z.looseObject({ domain: z.string().optional() }).optional();

/** `recentchange`: edits and page creations carry the new revision; log entries and categorisations change no text. */
const RecentChangeSchema = z.looseObject({
  wiki: z.string(),
  title: z.string(),
  namespace: z.number().int(),
  type: z.string(),
  revision: z.looseObject({ new: z.number().int().positive() }).optional(),
  meta: Meta,
});

/** `mediawiki.page_change.v1`. */
const PageChangeSchema = z.looseObject({
  wiki_id: z.string(),
  page_change_kind: z.string(),
  page: z.looseObject({ page_title: z.string(), namespace_id: z.number().int() }),
  revision: z.looseObject({ rev_id: z.number().int().positive() }).optional(),
  meta: Meta,
});

/** Kinds that leave the page with new content under its title (a move is the new title's creation too, but the stored one is under the old). */
const CONTENT_KINDS = new Set(['create', 'edit', 'undelete']);
const CONTENT_TYPES = new Set(['new', 'edit']);

/** The change an event's data announces, if it is one to an article's content; anything else (canary events, other namespaces, malformed data) is undefined. */
export function readChange(data: string): PageChange | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const page = PageChangeSchema.safeParse(json);
  if (page.success) {
    const e = page.data;
    if (e.meta?.domain === 'canary' || e.page.namespace_id !== 0 || !CONTENT_KINDS.has(e.page_change_kind)) return undefined;
    return { project: e.wiki_id, title: e.page.page_title, revision: e.revision?.rev_id };
  }
  const recent = RecentChangeSchema.safeParse(json);
  if (recent.success) {
    const e = recent.data;
    if (e.meta?.domain === 'canary' || e.namespace !== 0 || !CONTENT_TYPES.has(e.type)) return undefined;
    return { project: e.wiki, title: e.title, revision: e.revision?.new };
  }
  return undefined;
}
