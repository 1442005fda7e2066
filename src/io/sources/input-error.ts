/**
 * Why an input, or the rest of it, could not be read: one named code and a one-line message,
 * reported as one failed record (stderr line, errors file, exit code 1) while the other inputs
 * are still converted. The readers throw `InputError`s where they know more than the error they
 * caught (which page a cut dump ended in); `inputErrorOf` names whatever else was thrown.
 */

export const INPUT_ERROR_CODES = [
  /** The input ends before its end: a cut download, a stream or archive without its end. */
  'TRUNCATED_INPUT',
  /** The input holds nothing to convert: 0 bytes, only whitespace, a dump without pages, an empty directory. */
  'EMPTY_INPUT',
  /** A symbolic link whose target does not exist (a git-annex file not fetched, a moved cache). */
  'DANGLING_SYMLINK',
  /** Symbolic links that never reach a file, or lead back into a directory they are inside of. */
  'SYMLINK_LOOP',
  /** Anything else: permission denied, a corrupt stream, an input that disappeared. */
  'UNREADABLE',
] as const;
export type InputErrorCode = (typeof INPUT_ERROR_CODES)[number];

export class InputError extends Error {
  constructor(
    readonly code: InputErrorCode,
    message: string,
    /** The record the failure belongs to, when the reader knows it (the title of a cut page). */
    readonly at: { position?: number; name?: string } = {},
  ) {
    super(message);
  }
}

/** A download cut short: the hint every truncation message ends with. */
const CUT = '(an incomplete download or copy?)';

export function truncated(what: string, at: InputError['at'] = {}): InputError {
  return new InputError('TRUNCATED_INPUT', `truncated input: ${what} ${CUT}`, at);
}

/**
 * A decompressor or archive reader found the end of its input before the end of its data
 * (`bunzip`, the snapshot reader); `what` says which stream, e.g. "the bzip2 stream ends unexpectedly".
 */
export class StreamCut extends Error {}

export function empty(what: string): InputError {
  return new InputError('EMPTY_INPUT', `empty input: ${what}`);
}

/**
 * The error thrown while reading an input, named; `where` (" inside page 3") places it for the
 * reader that knows. Truncation is told apart from other damage where the decoder says so:
 * zlib's Z_BUF_ERROR is "unexpected end of file" (a gzip stream cut anywhere but between
 * members), tar-stream's "Unexpected end of data" an archive cut inside a header or member.
 */
export function inputErrorOf(error: unknown, where = '', at: InputError['at'] = {}): InputError {
  if (error instanceof InputError) return error;
  if (error instanceof StreamCut) return truncated(`${error.message}${where}`, at);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'Z_BUF_ERROR') return truncated(`the gzip stream ends unexpectedly${where}`, at);
  if (error instanceof Error && error.message === 'Unexpected end of data') return truncated(`the tar archive ends inside a member${where}`, at);
  if (code === 'ELOOP') return new InputError('SYMLINK_LOOP', `symbolic link loop${where}: ${reason(error)}`, at);
  return new InputError('UNREADABLE', `cannot read input${where}: ${reason(error)}`, at);
}

/** A short reason for a failed file operation: the errno in words, else the message. */
export function reason(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES') return 'permission denied';
    if (code === 'ELOOP') return 'too many levels of symbolic links';
    return error.message;
  }
  return String(error);
}

/**
 * The failure of a record that is its input's last line, ended by the end of the input rather
 * than a newline, and not complete JSON: the input was cut inside that line.
 */
export function cutLine(jsonError: string): { code: 'TRUNCATED_INPUT'; message: string } {
  return { code: 'TRUNCATED_INPUT', message: `truncated input: the last line ends without a newline, inside its JSON (${jsonError}) ${CUT}` };
}
