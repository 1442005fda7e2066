/**
 * What can go wrong when fetching an article from its live wiki. Each error carries the HTTP status
 * the content route answers with and a message that names the project, so that a client can tell
 * "the article does not exist" (404) from "the wiki is down" (502) and "the wiki is slow" (504).
 */
export type UpstreamErrorCode = 'UPSTREAM_NOT_FOUND' | 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_TIMEOUT' | 'UPSTREAM_TOO_LARGE' | 'UPSTREAM_TOO_COMPLEX' | 'UNKNOWN_PROJECT';

export abstract class UpstreamError extends Error {
  abstract readonly code: UpstreamErrorCode;
  /** The HTTP status the content route answers with. */
  abstract readonly status: 404 | 422 | 502 | 504;
  readonly project: string;
  readonly title: string;
  constructor(project: string, title: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.project = project;
    this.title = title;
  }
}

/** The wiki answered 404: there is no such page. */
export class UpstreamNotFound extends UpstreamError {
  readonly code = 'UPSTREAM_NOT_FOUND';
  readonly status = 404;
  constructor(project: string, title: string) {
    super(project, title, `no article "${title}" on ${project}`);
  }
}

/** The wiki could not be reached, kept failing (5xx, 429) or answered something unusable. */
export class UpstreamUnavailable extends UpstreamError {
  readonly code = 'UPSTREAM_UNAVAILABLE';
  readonly status = 502;
  readonly reason: string;
  /** Set when we know when asking again makes sense (an open circuit); for a Retry-After header. */
  readonly retryAfterSeconds: number | undefined;
  constructor(project: string, title: string, reason: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    const { retryAfterSeconds, ...errorOptions } = options;
    super(project, title, `the ${project} wiki is unavailable: ${reason} (fetching "${title}")`, errorOptions);
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The wiki did not answer within the deadline. */
export class UpstreamTimeout extends UpstreamError {
  readonly code = 'UPSTREAM_TIMEOUT';
  readonly status = 504;
  readonly afterMs: number;
  constructor(project: string, title: string, afterMs: number) {
    super(project, title, `the ${project} wiki did not answer in time (gave up after ${afterMs} ms fetching "${title}")`);
    this.afterMs = afterMs;
  }
}

/** The wiki's answer is over the size cap: refused rather than buffered. */
export class UpstreamTooLarge extends UpstreamError {
  readonly code = 'UPSTREAM_TOO_LARGE';
  readonly status = 502;
  readonly limit: number;
  constructor(project: string, title: string, limit: number) {
    super(project, title, `the ${project} wiki's answer for "${title}" is over the limit of ${limit} bytes`);
    this.limit = limit;
  }
}

/**
 * The wiki's article is over the engine's work limits (INPUT_TOO_COMPLEX, src/engine/budget.ts):
 * the wiki is fine, the page cannot be processed, and asking again will not change that.
 */
export class UpstreamTooComplex extends UpstreamError {
  readonly code = 'UPSTREAM_TOO_COMPLEX';
  readonly status = 422;
  constructor(project: string, title: string, reason: string, options?: { cause?: unknown }) {
    super(project, title, `the article "${title}" of ${project} cannot be processed: ${reason}`, options);
  }
}

/** The project code names no wiki we know how to reach. */
export class UnknownProject extends UpstreamError {
  readonly code = 'UNKNOWN_PROJECT';
  readonly status = 404;
  constructor(project: string, title: string) {
    super(project, title, `unknown project "${project}": no wiki host for this project code`);
  }
}
