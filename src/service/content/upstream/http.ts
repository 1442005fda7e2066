/**
 * One GET against a wiki, made resilient with cockatiel's policies: a timeout per attempt, bounded
 * retries with exponential backoff (equal jitter) for failures that may pass (connection errors,
 * timeouts, 408/429/5xx), Retry-After honoured up to a cap; then, by hand, what no policy library
 * does: same-origin redirects followed (so their number is bounded and they never leave the wiki),
 * and a cap on the answer's size that is enforced while reading, not after.
 */
import { DelegateBackoff, ExponentialBackoff, TimeoutStrategy, halfJitterGenerator, handleType, retry, timeout } from 'cockatiel';
import type { IBackoff, IRetryBackoffContext, TimeoutPolicy } from 'cockatiel';
import { untilAborted } from './abort.js';
import { UpstreamError, UpstreamNotFound, UpstreamTimeout, UpstreamTooLarge, UpstreamUnavailable } from './errors.js';
import { parseRetryAfter } from './retry-after.js';

export interface BackoffPolicy {
  /** Delay before the first retry; doubled for each further one, half of it random. */
  baseDelayMs: number;
  /** No single delay is longer than this. */
  maxDelayMs: number;
}

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
  /** Told of every retry before its wait: for logs, and for tests to see the waits without timing them. */
  onRetry?: ((retry: RetryEvent) => void) | undefined;
}

export interface RetryEvent {
  project: string;
  title: string;
  url: string;
  /** 1 for the first retry. */
  attempt: number;
  /** The wait before it: the backoff step, or longer when the wiki's Retry-After asks for more. */
  delayMs: number;
  /** What failed: "HTTP 503", "timeout", "ECONNRESET". */
  reason: string;
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

/** A failed attempt worth another; thrown inside the retry policy, never out of `resilientGet`. */
class Retryable extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(`retryable ${failure.kind}`);
    this.failure = failure;
  }
}

// Statuses that say "not now" rather than "never".
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The per-attempt timeout of a policy (stateless, so one per client). Not aborted once the attempt
 * has returned: its body is read by then, and aborting a finished fetch's signal costs undici its
 * kept-alive connection.
 */
export function attemptTimeout(policy: GetPolicy): TimeoutPolicy {
  return timeout(policy.attemptTimeoutMs, { strategy: TimeoutStrategy.Cooperative, abortOnReturn: false });
}

export async function resilientGet(url: string, accept: string, policy: GetPolicy, scope: FetchScope, perAttempt: TimeoutPolicy): Promise<GetResult> {
  // Set when the wait before the next attempt would end past the deadline: a retry that cannot
  // finish in time only adds load, so that attempt reports this failure instead of asking again.
  let hopeless: Failure | undefined;
  const exponential = new ExponentialBackoff({ initialDelay: policy.backoff.baseDelayMs, maxDelay: policy.backoff.maxDelayMs, generator: halfJitterGenerator });
  const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown>>((context, previous) => {
    const step = previous === undefined ? exponential.next() : previous.next(undefined);
    const failure = (context.result as { error: Retryable }).error.failure;
    const delay = Math.max(step.duration, failure.kind === 'status' ? (failure.retryAfterMs ?? 0) : 0);
    if (Date.now() + delay < scope.deadlineAt) return { delay, state: step };
    hopeless = failure;
    return { delay: 0, state: step };
  });
  const retries = retry(handleType(Retryable), { maxAttempts: policy.maxAttempts - 1, backoff });
  const { onRetry } = policy;
  if (onRetry !== undefined) {
    retries.onRetry((event) => {
      if (hopeless !== undefined || !('error' in event) || !(event.error instanceof Retryable)) return;
      onRetry({ project: scope.project, title: scope.title, url, attempt: event.attempt, delayMs: event.delay, reason: describe(event.error.failure) });
    });
  }

  const attempts = retries.execute(async () => {
    if (scope.signal.aborted) throw scope.abortReason();
    if (hopeless !== undefined) throw finalError(hopeless, scope);
    const outcome = await perAttempt.execute(({ signal }) => attempt(url, accept, policy, scope, signal), scope.signal);
    if (!('kind' in outcome)) return outcome;
    if (outcome.kind === 'status' && !RETRYABLE_STATUSES.has(outcome.status)) throw finalError(outcome, scope);
    if (outcome.kind === 'status' && outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.retryAfterCapMs) {
      throw new UpstreamUnavailable(
        scope.project,
        scope.title,
        `HTTP ${outcome.status}, asked to retry after ${Math.ceil(outcome.retryAfterMs / 1000)} s (longer than we wait)`,
      );
    }
    throw new Retryable(outcome);
  }, scope.signal);
  try {
    // cockatiel does not cut a backoff wait short on abort: stop waiting for it here.
    return await untilAborted(attempts, scope.signal);
  } catch (error) {
    if (scope.signal.aborted) throw scope.abortReason();
    if (error instanceof Retryable) throw finalError(error.failure, scope); // attempts used up
    throw error;
  }
}


/**
 * One attempt, redirects included; `signal` aborts with the scope or when the attempt's time is up
 * (cockatiel's timeout clears its timer when the attempt ends, so finished attempts hold none).
 * Failures worth retrying are returned; the rest are thrown.
 */
async function attempt(url: string, accept: string, policy: GetPolicy, scope: FetchScope, signal: AbortSignal): Promise<GetResult | Failure> {
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
    if (signal.aborted) return { kind: 'timeout' };
    return { kind: 'network', detail: networkDetail(error), cause: error };
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

function describe(failure: Failure): string {
  return failure.kind === 'status' ? `HTTP ${failure.status}` : failure.kind === 'timeout' ? 'timeout' : failure.detail;
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
