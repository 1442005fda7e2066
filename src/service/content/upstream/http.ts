/**
 * One GET against a wiki, made resilient: a timeout per attempt, bounded retries with backoff for
 * failures that may pass (connection errors, timeouts, 408/429/5xx), Retry-After honoured up to a
 * cap, same-origin redirects followed by hand (so their number is bounded and they never leave the
 * wiki), and a cap on the answer's size that is enforced while reading, not after.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackoffPolicy } from './backoff.js';
import { backoffDelay, parseRetryAfter } from './backoff.js';
import { UpstreamError, UpstreamNotFound, UpstreamTimeout, UpstreamTooLarge, UpstreamUnavailable } from './errors.js';

export interface GetPolicy {
  userAgent: string;
  attemptTimeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  backoff: BackoffPolicy;
  /** A Retry-After longer than this is not waited for: the fetch fails at once. */
  retryAfterCapMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

/** The fetch of one article, which may make several GETs: what they share. */
export interface FetchScope {
  project: string;
  title: string;
  /** Aborts when the whole fetch must stop: the caller gave up, the deadline passed, a sibling GET failed. */
  signal: AbortSignal;
  /** Date.now() value after which no new attempt or backoff sleep starts. */
  deadlineAt: number;
  startedAt: number;
  /** What to throw once `signal` has aborted. */
  abortReason(): unknown;
}

export interface GetResult {
  body: string;
  /** The URL that answered, after redirects. */
  url: string;
  contentType: string | undefined;
}

type Failure =
  | { kind: 'network'; detail: string; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'status'; status: number; retryAfterMs: number | undefined };

// Statuses that say "not now" rather than "never".
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function resilientGet(url: string, accept: string, policy: GetPolicy, scope: FetchScope): Promise<GetResult> {
  for (let attemptNo = 1; ; attemptNo++) {
    let outcome: GetResult | Failure;
    try {
      outcome = await attempt(url, accept, policy, scope);
    } catch (error) {
      throw scope.signal.aborted ? scope.abortReason() : error;
    }
    if (!('kind' in outcome)) return outcome;
    const failure = outcome;
    if (failure.kind === 'status' && !RETRYABLE_STATUSES.has(failure.status)) throw finalError(failure, scope);
    if (attemptNo >= policy.maxAttempts) throw finalError(failure, scope);

    let delay = backoffDelay(attemptNo, policy.backoff);
    if (failure.kind === 'status' && failure.retryAfterMs !== undefined) {
      if (failure.retryAfterMs > policy.retryAfterCapMs) {
        throw new UpstreamUnavailable(
          scope.project,
          scope.title,
          `HTTP ${failure.status}, asked to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s (longer than we wait)`,
        );
      }
      delay = Math.max(delay, failure.retryAfterMs);
    }
    // A retry that cannot finish before the deadline only adds load: report what we have.
    if (Date.now() + delay >= scope.deadlineAt) throw finalError(failure, scope);
    try {
      await sleep(delay, undefined, { signal: scope.signal });
    } catch {
      throw scope.abortReason();
    }
  }
}

/** One attempt, redirects included. Failures worth retrying are returned; the rest are thrown. */
async function attempt(url: string, accept: string, policy: GetPolicy, scope: FetchScope): Promise<GetResult | Failure> {
  // A cleared timer rather than AbortSignal.timeout: under load, thousands of finished attempts
  // would otherwise keep their timers (and what they reference) alive until they fire.
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), policy.attemptTimeoutMs);
  const signal = AbortSignal.any([scope.signal, timer.signal]);
  const origin = new URL(url).origin;
  let current = url;
  try {
    for (let hops = 0; ; hops++) {
      const res = await fetch(current, {
        headers: { accept, 'user-agent': policy.userAgent },
        redirect: 'manual',
        signal,
      });
      if (REDIRECT_STATUSES.has(res.status)) {
        await discard(res);
        current = redirectTarget(res, current, origin, hops, policy, scope);
        continue;
      }
      if (res.status === 200) {
        const body = await readCapped(res, policy.maxResponseBytes, scope);
        return { body, url: current, contentType: res.headers.get('content-type') ?? undefined };
      }
      await discard(res);
      if (res.status === 404 || res.status === 410) throw new UpstreamNotFound(scope.project, scope.title);
      return { kind: 'status', status: res.status, retryAfterMs: parseRetryAfter(res.headers.get('retry-after')) };
    }
  } catch (error) {
    if (error instanceof UpstreamError || scope.signal.aborted) throw error;
    if (timer.signal.aborted) return { kind: 'timeout' };
    return { kind: 'network', detail: networkDetail(error), cause: error };
  } finally {
    clearTimeout(timeout);
  }
}

function redirectTarget(res: Response, current: string, origin: string, hops: number, policy: GetPolicy, scope: FetchScope): string {
  const location = res.headers.get('location');
  if (location === null) throw new UpstreamUnavailable(scope.project, scope.title, `HTTP ${res.status} without a Location header`);
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new UpstreamUnavailable(scope.project, scope.title, `HTTP ${res.status} to an unreadable Location ${JSON.stringify(location)}`);
  }
  if (next.origin !== origin) {
    throw new UpstreamUnavailable(scope.project, scope.title, `redirected off the wiki, to ${next.origin}`);
  }
  if (hops >= policy.maxRedirects) {
    throw new UpstreamUnavailable(scope.project, scope.title, `more than ${policy.maxRedirects} redirects`);
  }
  return next.href;
}

/** The body as text, refused as soon as it passes the cap (a declared length is checked first). */
async function readCapped(res: Response, limit: number, scope: FetchScope): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > limit) {
    await discard(res);
    throw new UpstreamTooLarge(scope.project, scope.title, limit);
  }
  if (res.body === null) return '';
  // A declared length of the bytes as they arrive bounds the body: read it in one go (faster).
  // With a Content-Encoding the length is the compressed one, so the decoded stream is counted.
  if (res.headers.has('content-length') && !res.headers.has('content-encoding')) return res.text();
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop by throwing cancels the stream, which closes the connection.
  for await (const chunk of res.body) {
    total += chunk.byteLength;
    if (total > limit) throw new UpstreamTooLarge(scope.project, scope.title, limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

async function discard(res: Response): Promise<void> {
  try {
    await res.body?.cancel();
  } catch {
    // Nothing to do: the connection is dropped either way.
  }
}

function finalError(failure: Failure, scope: FetchScope): UpstreamError {
  switch (failure.kind) {
    case 'timeout':
      return new UpstreamTimeout(scope.project, scope.title, Date.now() - scope.startedAt);
    case 'network':
      return new UpstreamUnavailable(scope.project, scope.title, `cannot reach the wiki (${failure.detail})`, { cause: failure.cause });
    case 'status':
      return new UpstreamUnavailable(scope.project, scope.title, `HTTP ${failure.status}`);
    default: {
      const never: never = failure;
      return never;
    }
  }
}

/** The most specific reason undici gives: "fetch failed" wraps e.g. ECONNREFUSED in `cause`. */
function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (typeof cause === 'object' && cause !== null) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const message = (cause as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return error instanceof Error ? error.message : String(error);
}
