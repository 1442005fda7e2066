/**
 * The only errors `parse` throws. Each has a stable `code` for programs and a message for people.
 * Malformed HTML is not among them: it is parsed best-effort, as browsers do.
 */
export type WikistructErrorCode = 'INPUT_TOO_LARGE' | 'NOT_HTML' | 'INVALID_INPUT';

export class WikistructError extends Error {
  readonly code: WikistructErrorCode;
  constructor(code: WikistructErrorCode, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}

export class InputTooLargeError extends WikistructError {
  readonly size: number;
  readonly limit: number;
  constructor(size: number, limit: number) {
    super('INPUT_TOO_LARGE', `input is ${size} bytes, over the limit of ${limit} bytes (option maxInputBytes)`);
    this.size = size;
    this.limit = limit;
  }
}

export class NotHtmlError extends WikistructError {
  constructor(reason: string) {
    super('NOT_HTML', `input is not HTML: ${reason}`);
  }
}

export class InvalidInputError extends WikistructError {
  constructor(reason: string) {
    super('INVALID_INPUT', reason);
  }
}
