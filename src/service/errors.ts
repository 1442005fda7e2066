/**
 * The one error type routes turn into a reply: `{message, status}` with that HTTP status.
 * Anything else that escapes a handler is answered with a generic 500 and logged in full.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds a client should wait before retrying; sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
    /** Headers the reply must carry (`WWW-Authenticate` on a 401, `Allow` on a 405). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const unauthorized = (message: string, headers?: Record<string, string>): HttpError => new HttpError(401, message, undefined, headers);
export const forbidden = (message: string): HttpError => new HttpError(403, message);
export const unprocessable = (message: string): HttpError => new HttpError(422, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number): HttpError =>
  new HttpError(429, message, retryAfterSeconds);
