/**
 * How a failed record is reported: its line in the errors file (and in a queue shard's part), and
 * where it is said to be on stderr. A single-machine run and a queue run report a failure alike.
 */
import type { Outcome } from '../io/record.js';
import type { ErrorLine } from '../io/sinks/errors.js';
import { isFailure } from '../io/sources/index.js';
import type { SourceItem } from '../io/sources/index.js';
import { cutLine } from '../io/sources/input-error.js';

export function errorLine(item: SourceItem, outcome: Extract<Outcome, { status: 'failed' }>): ErrorLine {
  const position = item.position;
  const fallback = isFailure(item) || !item.wholeFile ? `${item.source}:${position}` : item.source;
  // An input's last line without its newline that is not JSON: the input was cut inside it.
  const failure = !isFailure(item) && item.unterminated === true && outcome.code === 'MALFORMED_JSON' ? cutLine(outcome.message) : outcome;
  // One failure, one line: multi-line messages (from tools, from exceptions) are flattened.
  const message = failure.message.replace(/\s*\n\s*/g, ' ');
  return { name: outcome.name ?? fallback, source: item.source, position, code: failure.code ?? 'FAILED', message };
}

/**
 * Whether a failure is placed by its input's name alone: a record that is a whole file, or an
 * input that could not be opened (position 0: a missing file, a dangling link, an empty directory).
 */
export function placedByInput(item: SourceItem): boolean {
  return isFailure(item) ? item.position === 0 : item.wholeFile;
}

/** Where a failed record is, as stderr names it: the input, or the input and the record's position. */
export function where(item: SourceItem): string {
  if (placedByInput(item)) return item.source;
  return `${item.source}:${item.position}`;
}
