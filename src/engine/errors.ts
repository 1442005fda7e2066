/**
 * The only errors `parse` throws. Each has a stable `code` for programs and a message for people.
 * Malformed HTML is not among them: it is parsed best-effort, as browsers do.
 */
export type WikistructErrorCode = 'INPUT_TOO_LARGE' | 'INPUT_TOO_COMPLEX' | 'NOT_HTML' | 'INVALID_INPUT';

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

/**
 * The page would make more of something than any real article of its size does (budget.ts): more
 * table cells, parts, links… than its work budget allows. Refused before the work is done, so a
 * small hostile page cannot exhaust memory or time.
 */
export class InputTooComplexError extends WikistructError {
  /** Which limit of budget.ts `WORK_LIMITS`, e.g. `cells`. */
  readonly limit: string;
  /** The limit's value for this page. */
  readonly value: number;
  readonly inputBytes: number;
  /** `what` names what is counted and how the limit is computed. */
  constructor(limit: string, value: number, inputBytes: number, what: string) {
    super('INPUT_TOO_COMPLEX', `input is too complex: a page of ${inputBytes} bytes may make at most ${value} ${what}`);
    this.limit = limit;
    this.value = value;
    this.inputBytes = inputBytes;
  }
}
